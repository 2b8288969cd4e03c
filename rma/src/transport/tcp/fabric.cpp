#include "transport/tcp/fabric.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace armada::rma::detail::tcp {

namespace {
// The sysfs classes whose devices carry a fabric that MPI libraries drive without TCP.
constexpr const char* kFabricClasses[] = {"infiniband", "cxi"};
}  // namespace

std::vector<std::string> fabric_devices(const std::string& sysfs_class) {
  std::vector<std::string> found;
  for (const char* kind : kFabricClasses) {
    std::error_code error;  // a missing class folder: no such device
    for (const auto& device : std::filesystem::directory_iterator(std::filesystem::path(sysfs_class) / kind, error))
      found.push_back(std::string(kind) + "/" + device.path().filename().string());
  }
  std::ranges::sort(found);
  return found;
}

}  // namespace armada::rma::detail::tcp
