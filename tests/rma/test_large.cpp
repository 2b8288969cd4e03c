// A transfer of more than 2 GiB in one call (sizes are size_t end to end). Rank 0 owns a
// 2.25 GiB segment; the last rank puts into it and gets it back in single calls.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "test_util.hpp"

namespace armada::rma {
namespace {

TEST(Large, PutAndGetOfMoreThan2GiB) {
  const std::size_t bytes = (std::size_t{9} << 28);  // 2.25 GiB
  const int origin = size() - 1;
  test::Segment seg(rank() == 0 ? bytes : 0);
  barrier();
  if (rank() == origin) {
    auto* buf = static_cast<std::uint64_t*>(allocate_local(bytes));
    const std::size_t words = bytes / 8;
    for (std::size_t i = 0; i < words; ++i) buf[i] = i * 0x9E3779B97F4A7C15ull;
    put(buf, seg.base(0), bytes, 0);
    fence(0);
    std::memset(buf, 0, bytes);
    get(seg.base(0), buf, bytes, 0);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < words; ++i) wrong += buf[i] != i * 0x9E3779B97F4A7C15ull;
    EXPECT_EQ(wrong, 0u);
    // Past the end by one byte is still caught at this size.
    test::expect_error<InvalidArgument>([&] { put(buf, seg.base(0) + 1, bytes, 0); }, {"past the end"});
    free_local(buf);
  }
  barrier();
}

}  // namespace
}  // namespace armada::rma
