// What makes auto pass over the tcp transport: a fabric device under /sys/class (InfiniBand and
// the like, or Slingshot's cxi), read from a made-up sysfs tree, and this host's own answer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "transport/tcp/fabric.hpp"

namespace {

namespace fs = std::filesystem;
using armada::rma::detail::tcp::fabric_devices;

// A scratch sysfs class folder, removed afterwards.
struct FakeSysClass {
  fs::path root = fs::temp_directory_path() / ("armada-fabric-" + std::to_string(::getpid()));
  FakeSysClass() { fs::create_directories(root / "net" / "eth0"); }
  ~FakeSysClass() { fs::remove_all(root); }
  void add(const std::string& device) { fs::create_directories(root / device); }
};

TEST(TcpFabric, EthernetOnlyHasNone) {
  FakeSysClass sys;
  EXPECT_TRUE(fabric_devices(sys.root.string()).empty());
  fs::create_directories(sys.root / "infiniband");  // the class without a device
  EXPECT_TRUE(fabric_devices(sys.root.string()).empty());
}

TEST(TcpFabric, InfinibandAndCxiDevicesAreNamedSorted) {
  FakeSysClass sys;
  sys.add("infiniband/mlx5_1");
  sys.add("infiniband/mlx5_0");
  sys.add("cxi/cxi0");
  EXPECT_EQ(fabric_devices(sys.root.string()),
            (std::vector<std::string>{"cxi/cxi0", "infiniband/mlx5_0", "infiniband/mlx5_1"}));
}

TEST(TcpFabric, AMissingSysfsIsNoFabric) {
  EXPECT_TRUE(fabric_devices("/nonexistent/armada/sys/class").empty());
}

// This host's answer agrees with its own /sys/class/infiniband (the emulated cluster's rows
// expect tcp from auto only where it is empty).
TEST(TcpFabric, ThisHostAgreesWithItsSysfs) {
  std::error_code error;
  const bool has_ib = fs::exists("/sys/class/infiniband", error) && !fs::is_empty("/sys/class/infiniband", error);
  const std::vector<std::string> found = fabric_devices("/sys/class");
  if (has_ib) {
    ASSERT_FALSE(found.empty());
  }
  for (const std::string& d : found) EXPECT_TRUE(d.starts_with("infiniband/") || d.starts_with("cxi/")) << d;
}

}  // namespace
