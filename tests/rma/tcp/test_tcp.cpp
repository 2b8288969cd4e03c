// The tcp transport's flow control: a connection carries requests one way and answers the
// other, and a process that does not read the answers it is owed must not stop the peer that
// owes them from taking its requests. Volumes exceed what the kernel buffers on a connection
// (here up to 32 MiB received + 4 MiB sent), so that a transport that waited for room without
// reading would hang (both cases did, before the service's answers and the origin's sends read
// pending answers while they wait for room: rma/src/transport/tcp/).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

// Two ranks each hold more of the other's data in unread nonblocking gets than a connection
// buffers, and wait for the other's notified put before they wait for their gets: each target
// must run that put though the answers it owes have not been read (tcp: a service thread whose
// answer waits for room collects its own process's answers meanwhile, so the two services do not
// wait for each other).
TEST(TcpFlowControl, UnreadGetAnswersBothWaysDoNotBlockANotifiedPut) {
  constexpr std::size_t kGets = 48, kWords = (1u << 20) / sizeof(std::uint64_t);
  const int partner = (rank() ^ 1) < size() ? (rank() ^ 1) : rank();
  Segment seg((kWords + 2) * sizeof(std::uint64_t));
  auto* mine = seg.local<std::uint64_t>();
  for (std::size_t i = 0; i < kWords; ++i) mine[i] = (static_cast<std::uint64_t>(rank()) << 40) + i + 1;
  mine[kWords] = mine[kWords + 1] = 0;  // the partner's put lands in [kWords + 1], its flag is [kWords]
  std::vector<std::uint64_t> into(kGets * kWords, 0);
  barrier();
  const std::uint64_t* theirs = seg.base<std::uint64_t>(partner);
  std::vector<Handle> gets;
  for (std::size_t g = 0; g < kGets; ++g)
    gets.push_back(get_nb(theirs, into.data() + g * kWords, kWords * sizeof(std::uint64_t), partner));
  const std::uint64_t hello = 7000 + static_cast<std::uint64_t>(rank());
  auto flag_of = [&](std::uint64_t* words) { return reinterpret_cast<long*>(words + kWords); };
  put_notify(&hello, seg.base<std::uint64_t>(partner) + kWords + 1, sizeof hello,
             flag_of(seg.base<std::uint64_t>(partner)), 1L, partner);
  wait_flag(flag_of(mine), 1L);
  EXPECT_EQ(mine[kWords + 1], 7000 + static_cast<std::uint64_t>(partner));
  for (Handle& h : gets) h.wait();
  const std::uint64_t high = static_cast<std::uint64_t>(partner) << 40;
  std::size_t wrong = 0;
  for (std::size_t g = 0; g < kGets; ++g)
    for (std::size_t i = 0; i < kWords; ++i) wrong += into[g * kWords + i] != high + i + 1;
  EXPECT_EQ(wrong, 0u) << "words of the " << kGets << " gets from rank " << partner;
  barrier();
}

// A large put to a rank that still owes this one many unread get answers on the same
// connection: the target answers the gets first (in order), so the put can only go in while the
// origin reads those answers (tcp: an origin whose send waits for room reads the answers of
// that connection meanwhile).
TEST(TcpFlowControl, APutBehindUnreadGetAnswersCompletes) {
  constexpr std::size_t kGets = 32, kWords = (1u << 20) / sizeof(std::uint64_t), kPutWords = 16 * kWords;
  const int partner = (rank() ^ 1) < size() ? (rank() ^ 1) : rank();
  Segment seg((kWords + kPutWords) * sizeof(std::uint64_t));
  auto* mine = seg.local<std::uint64_t>();
  for (std::size_t i = 0; i < kWords; ++i) mine[i] = (static_cast<std::uint64_t>(rank()) << 40) + i + 1;
  std::vector<std::uint64_t> into(kGets * kWords, 0), out(kPutWords);
  for (std::size_t i = 0; i < kPutWords; ++i) out[i] = (static_cast<std::uint64_t>(rank()) << 40) + 3 * i;
  barrier();
  std::vector<Handle> gets;
  for (std::size_t g = 0; g < kGets; ++g)
    gets.push_back(get_nb(seg.base<std::uint64_t>(partner), into.data() + g * kWords, kWords * sizeof(std::uint64_t),
                          partner));
  put(out.data(), seg.base<std::uint64_t>(partner) + kWords, kPutWords * sizeof(std::uint64_t), partner);
  for (Handle& h : gets) h.wait();
  fence(partner);
  barrier();
  std::size_t wrong = 0;
  const std::uint64_t high = static_cast<std::uint64_t>(partner) << 40;
  for (std::size_t g = 0; g < kGets; ++g)
    for (std::size_t i = 0; i < kWords; ++i) wrong += into[g * kWords + i] != high + i + 1;
  for (std::size_t i = 0; i < kPutWords; ++i) wrong += mine[kWords + i] != high + 3 * i;
  EXPECT_EQ(wrong, 0u) << "words got from and put by rank " << partner;
  barrier();
}

}  // namespace
}  // namespace armada::rma
