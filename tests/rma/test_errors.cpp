// Bad input: every case of DESIGN.md "Errors and bad input" is rejected with an InvalidArgument
// (or StateError / Unsupported) naming the operation, the argument and the value, and no byte
// of the target moves.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::expect_error;
using test::Segment;

class BadInput : public ::testing::Test {
 protected:
  static constexpr std::size_t kBytes = 256;
  void SetUp() override {
    seg_ = std::make_unique<Segment>(kBytes);
    std::memset(seg_->local(), 0x3C, kBytes);
    std::memset(buf_, 0x7F, sizeof buf_);
    barrier();
  }
  void TearDown() override {
    barrier();
    for (std::size_t i = 0; i < kBytes; ++i)
      ASSERT_EQ(seg_->local<unsigned char>()[i], 0x3C) << "byte " << i << " of the target moved";
    seg_.reset();
  }
  int target() const { return (rank() + 1) % size(); }
  std::byte* remote(std::size_t off = 0) const { return seg_->base(target()) + off; }
  std::unique_ptr<Segment> seg_;
  alignas(16) unsigned char buf_[1024];
};

TEST_F(BadInput, WrongRank) {
  expect_error<InvalidArgument>([&] { put(buf_, remote(), 8, size()); },
                                {"[rank ", "rma::put", "argument 'target' = " , "not a rank of the world group"});
  expect_error<InvalidArgument>([&] { get(remote(), buf_, 8, -1); }, {"rma::get", "'target' = -1"});
  const double one = 1;
  expect_error<InvalidArgument>([&] { acc(AccType::Double, &one, buf_, remote(), 8, size() + 5); },
                                {"rma::acc", "'target'"});
  expect_error<InvalidArgument>([&] { fence(size()); }, {"rma::fence", "'target'"});
  expect_error<InvalidArgument>([&] { wait_target(-3); }, {"rma::wait_target", "-3"});
  expect_error<InvalidArgument>([&] { Aggregate a(size()); }, {"rma::Aggregate", "'target'"});
}

TEST_F(BadInput, AddressOutsideEverySegment) {
  expect_error<InvalidArgument>([&] { put(buf_, buf_ + 512, 8, target()); },
                                {"rma::put", "argument 'dst'", "not inside any segment of rank"});
  expect_error<InvalidArgument>([&] { get(nullptr, buf_, 8, target()); }, {"rma::get", "'src'"});
  // Rank r's address is not valid at rank r+1... unless both are the same segment slice: a
  // base of one rank used with another rank is caught when it falls outside that rank's slice.
  expect_error<InvalidArgument>([&] { put(buf_, remote(kBytes), 1, target()); }, {"'dst'"});
}

TEST_F(BadInput, RangePastTheEndOfASegment) {
  expect_error<InvalidArgument>([&] { put(buf_, remote(200), 57, target()); },
                                {"rma::put", "'dst'", "runs 1 bytes past the end of its segment"});
  expect_error<InvalidArgument>([&] { get(remote(8), buf_, kBytes, target()); }, {"rma::get", "past the end"});
  const std::size_t count[] = {16, 4};
  const std::size_t stride[] = {64};
  // Extent = 3 * 64 + 16 = 208 bytes; from offset 64 that ends at 272 > 256.
  expect_error<InvalidArgument>([&] { put_strided(buf_, stride, remote(64), stride, count, target()); },
                                {"rma::put_strided", "'dst'", "past the end"});
}

TEST_F(BadInput, StridedDescriptors) {
  const std::size_t count9[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const std::size_t stride9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  expect_error<InvalidArgument>([&] { put_strided(buf_, stride9, remote(), stride9, count9, target()); },
                                {"rma::put_strided", "stride_levels", "9", "at most 8"});
  const std::size_t count[] = {8, 2};
  const std::size_t s1[] = {16}, s2[] = {16, 32};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s2, remote(), s1, count, target()); },
                                {"'src_stride'", "one stride per level (1)"});
  expect_error<InvalidArgument>([&] { get_strided(remote(), s1, buf_, s2, count, target()); },
                                {"rma::get_strided", "'dst_stride'"});
  const std::size_t zero[] = {8, 0};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s1, remote(), s1, zero, target()); },
                                {"'count'", "count[1] is 0"});
  const std::size_t zero0[] = {0, 2};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s1, remote(), s1, zero0, target()); }, {"count[0] is 0"});
  const std::size_t small[] = {4};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s1, remote(), small, count, target()); },
                                {"'dst_stride'", "dst_stride[0] = 4 is smaller than the 8 bytes"});
  const std::size_t empty[] = {0};
  expect_error<InvalidArgument>([&] { put_strided(buf_, {}, remote(), {}, std::span<const std::size_t>(empty, 0), target()); },
                                {"'count'", "at least count[0]"});
  const std::size_t huge[] = {1ull << 40, 1ull << 40};
  const std::size_t hs[] = {1ull << 40};
  expect_error<InvalidArgument>([&] { put_strided(buf_, hs, remote(), hs, huge, target()); }, {"overflow"});
}

TEST_F(BadInput, NullLocalBuffers) {
  expect_error<InvalidArgument>([&] { put(nullptr, remote(), 8, target()); }, {"rma::put", "'src' = null"});
  expect_error<InvalidArgument>([&] { get(remote(), nullptr, 8, target()); }, {"rma::get", "'dst' = null"});
}

TEST_F(BadInput, AccumulateArguments) {
  const double one = 1;
  expect_error<InvalidArgument>([&] { acc(AccType::Double, nullptr, buf_, remote(), 8, target()); },
                                {"rma::acc", "'scale' = null"});
  expect_error<InvalidArgument>([&] { acc(AccType::Double, &one, buf_, remote(), 12, target()); },
                                {"'count[0]' = 12", "multiple of the double element size 8"});
  expect_error<InvalidArgument>([&] { acc(static_cast<AccType>(42), &one, buf_, remote(), 8, target()); },
                                {"'type' = 42", "not an AccType"});
  // (Unaligned addresses and strides are accepted: test_accumulate's UnalignedElements*.)
  const std::size_t count[] = {12, 2}, stride[] = {16};
  expect_error<InvalidArgument>(
      [&] { acc_strided(AccType::Double, &one, buf_, stride, remote(), stride, count, target()); },
      {"rma::acc_strided", "'count[0]' = 12", "element size 8"});
}

TEST_F(BadInput, HandlesAndFree) {
  expect_error<InvalidArgument>([&] { rma::free(buf_); }, {"rma::free", "'my_base'", "not the local base"});
  expect_error<InvalidArgument>([&] { segment_size(buf_); }, {"rma::segment_size"});
  // An empty handle is complete; waiting on it is fine.
  Handle h;
  h.wait();
  EXPECT_TRUE(h.test());
  EXPECT_EQ(h.target(), -1);
}

// Under direct delivery the target's server copies out of, or into, this process's buffer
// itself; a buffer it cannot access comes back as an error naming the operation (not a crash of
// the server or of the target), and no byte of the target moves.
TEST_F(BadInput, InaccessibleBufferUnderDirectDelivery) {
  constexpr std::size_t n = 64 << 10;  // above ARMADA_SERVER_INLINE: not carried in the request
  Segment big(n);
  std::memset(big.local(), 0x5A, n);
  barrier();
  const bool direct = server_direct(target());
  if (direct) {
    void* none = mmap(nullptr, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(none, MAP_FAILED);
    if (none != MAP_FAILED) {
      std::byte* to = big.base(target());
      expect_error<SystemError>([&] { put(none, to, n, target()); }, {"rma::put", "could not copy", "Bad address"});
      expect_error<SystemError>([&] { get(to, none, n, target()); }, {"rma::get", "could not copy", "Bad address"});
      const double scale = 1;
      expect_error<SystemError>([&] { acc(AccType::Double, &scale, none, to, n, target()); },
                                {"rma::acc", "could not copy"});
      Handle h = get_nb(to, none, n, target());
      expect_error<SystemError>([&] { h.wait(); }, {"could not copy", "Bad address"});
      // The transport carries on: a good transfer right after.
      std::vector<unsigned char> back(n, 0);
      get(to, back.data(), n, target());
      EXPECT_EQ(back[n - 1], 0x5A);
      munmap(none, n);
    }
  }
  barrier();
  std::size_t moved = 0;
  for (std::size_t i = 0; i < n; ++i) moved += big.local<unsigned char>()[i] != 0x5A;
  EXPECT_EQ(moved, 0u) << "bytes of the target changed";
  int any = direct ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, world_comm());
  if (!any) GTEST_SKIP() << "no rank reaches its target by direct delivery in this configuration";
}

TEST(BadGroups, CreateAndAllocateCheckTheirArguments) {
  const int n = size();
  const int dup[] = {0, 0};
  expect_error<InvalidArgument>([&] { Group::create(Group::world(), dup); }, {"rma::Group::create", "listed twice"});
  const int out[] = {n};
  expect_error<InvalidArgument>([&] { Group::create(Group::world(), out); }, {"ranks[0]", "not a rank of the parent"});
  expect_error<InvalidArgument>([&] { Group::world().world_rank(n); }, {"rma::Group::world_rank", "'group_rank'"});
  expect_error<InvalidArgument>([&] { allocate(8, Group(nullptr)); }, {"rma::allocate", "'group'", "empty group"});
  barrier();
}

/// Sets an environment variable for its lifetime and puts back what was there before.
class ScopedEnv {
 public:
  explicit ScopedEnv(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) saved_ = v;
  }
  ~ScopedEnv() {
    if (saved_) setenv(name_, saved_->c_str(), 1);
    else unsetenv(name_);
  }
  void set(const char* value) const { setenv(name_, value, 1); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

TEST(BadSettings, ConfigurationValuesAreChecked) {
  auto rejects = [](const char* name, const char* value, std::initializer_list<const char*> parts) {
    const ScopedEnv env(name);
    env.set(value);
    expect_error<InvalidArgument>([] { read_config(); }, parts);
  };
  rejects("ARMADA_NODE_SIZE", "two", {"rma::init", "ARMADA_NODE_SIZE", "'two'", "integer"});
  rejects("ARMADA_NODE_SIZE", "-1", {"ARMADA_NODE_SIZE", "'-1'"});
  rejects("ARMADA_VERBOSE", "maybe", {"ARMADA_VERBOSE", "'maybe'"});
  rejects("ARMADA_TRANSPORT", "carrier-pigeon", {"ARMADA_TRANSPORT", "'carrier-pigeon'", "server, mpi-rma, none"});
  rejects("ARMADA_SERVER_CLUSTER", "0", {"ARMADA_SERVER_CLUSTER", "'0'"});
  rejects("ARMADA_MPI_MEMORY", "heap", {"rma::init", "ARMADA_MPI_MEMORY", "'heap'", "mpi, shm"});
  rejects("ARMADA_MPI_IOV", "clever", {"ARMADA_MPI_IOV", "'clever'", "auto, batched, direct"});
  rejects("ARMADA_SERVER_DIRECT", "sometimes", {"rma::init", "ARMADA_SERVER_DIRECT", "'sometimes'", "auto, on, off"});
  rejects("ARMADA_SERVER_AWAKE_US", "-5", {"ARMADA_SERVER_AWAKE_US", "'-5'", "[0, 10000000]"});
  {
    const ScopedEnv memory("ARMADA_MPI_MEMORY");
    memory.set("shm");
    EXPECT_EQ(read_config().mpi_memory, "shm");
  }
  {
    const ScopedEnv direct("ARMADA_SERVER_DIRECT");
    direct.set("off");
    EXPECT_EQ(read_config().server_direct, "off");
  }
  // Everything is as it was: the environment reads back as the running configuration.
  EXPECT_EQ(read_config().node_size, config().node_size);
  EXPECT_EQ(read_config().server_direct, config().server_direct);
}

}  // namespace
}  // namespace armada::rma
