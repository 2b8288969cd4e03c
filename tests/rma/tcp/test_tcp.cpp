// The tcp transport's flow control: a pair of processes shares one connection, both sending
// requests and answers on it, and a process that does not read the answers it is owed must not
// stop the peer that owes them from taking its requests. Volumes exceed what the kernel buffers on a connection
// (here up to 32 MiB received + 4 MiB sent), so that a transport that waited for room without
// reading would hang (both cases did, before the service's answers and the origin's sends read
// pending answers while they wait for room: rma/src/transport/tcp/).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

// The rank this one pairs with on another node (rank ^ 1, else rank ^ 2), or -1: on one node the
// tcp transport carries nothing.
int partner_on_another_node() {
  int partner = rank() ^ 1;
  if (partner < size() && same_node(rank(), partner)) partner = rank() ^ 2;
  return partner < size() && !same_node(rank(), partner) ? partner : -1;
}

// First contact from both ends at once (defined first: the pairs have no connection yet): every
// rank writes to and reads from every rank of another node right after a barrier, so both
// processes of a pair connect at the same moment. Each pair then holds two connections, and both
// ends send on the same one (the lower rank's: the Hello's answer says so); every write, read and
// fence stays in order. (Before that answer, each end sent on its own: 2 connections in use in
// 5 of 5 runs of 2 ranks.)
TEST(TcpFirstContact, BothEndsOfEveryPairConnectAtOnce) {
  constexpr int kRounds = 20;
  Segment seg(static_cast<std::size_t>(size()) * sizeof(long));
  long* mine = seg.local<long>();
  for (int r = 0; r < size(); ++r) mine[r] = -1;
  barrier();
  for (int round = 0; round < kRounds; ++round) {
    for (int r = 0; r < size(); ++r) {
      if (same_node(rank(), r)) continue;
      const long value = 1000L * round + rank();
      put(&value, seg.base<long>(r) + rank(), sizeof value, r);
      long back = -2;
      get(seg.base<long>(r) + rank(), &back, sizeof back, r);  // behind the put on the same connection
      EXPECT_EQ(back, value) << "round " << round << ", rank " << r;
    }
    fence_all();
    barrier();
    for (int r = 0; r < size(); ++r) {
      if (!same_node(rank(), r)) {
        EXPECT_EQ(mine[r], 1000L * round + r) << "round " << round << ", from rank " << r;
      }
    }
    barrier();
  }
  // Both ends of every pair send on the same connection: each says which end opened it.
  Segment views(static_cast<std::size_t>(size()) * sizeof(long));
  for (int r = 0; r < size(); ++r) {
    if (same_node(rank(), r)) continue;
    const long opener = std::stol(*transport_info(r).find("opened_by"));
    EXPECT_TRUE(opener == rank() || opener == r) << "rank " << r << ": opened by " << opener;
    put(&opener, views.base<long>(r) + rank(), sizeof opener, r);
  }
  fence_all();
  barrier();
  for (int r = 0; r < size(); ++r) {
    if (!same_node(rank(), r)) {
      EXPECT_EQ(views.local<long>()[r], std::stol(*transport_info(r).find("opened_by")))
          << "ranks " << rank() << " and " << r << " send on different connections";
    }
  }
  int others = 0;
  for (int r = 0; r < size(); ++r) others += !same_node(rank(), r);
  if (others == 0) return;
  int other = 0;
  while (same_node(rank(), other)) ++other;
  const auto fact = [&](const char* key) { return std::stol(*transport_info(other).find(key)); };
  EXPECT_LE(fact("connections_out"), others);
  EXPECT_LE(fact("connections_in"), others);
  EXPECT_GE(fact("connections_out") + fact("connections_in"), others);
  barrier();
}

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

// Both ranks of a pair at once: each one's large put, strided put and accumulate find the
// connection full of the other's, and each one's gets are answered while both write (tcp: a
// sender waiting for room reads the link, runs the peer's requests and queues their answers in
// the outbox; whoever sleeps on the link wakes for room to send them). A transport whose readers
// or senders waited for each other would hang here.
TEST(TcpFlowControl, LargeWritesAndGetsBothWaysAtOnce) {
  constexpr std::size_t kWords = (std::size_t{24} << 20) / sizeof(double), kGetWords = (std::size_t{8} << 20) / sizeof(double);
  constexpr std::size_t kRows = 512, kRowWords = 1024;  // the strided put: 4 MiB, every other row
  const int partner = (rank() ^ 1) < size() ? (rank() ^ 1) : rank();
  // Mine: [source of the partner's gets | the partner's put | the partner's strided put | its accumulate]
  Segment seg((kGetWords + kWords + 2 * kRows * kRowWords + kGetWords) * sizeof(double));
  double* mine = seg.local<double>();
  double* const put_at = mine + kGetWords;
  double* const strided_at = put_at + kWords;
  double* const acc_at = strided_at + 2 * kRows * kRowWords;
  const auto value = [](int r, std::size_t i) { return static_cast<double>(r) * 1e8 + static_cast<double>(i); };
  for (std::size_t i = 0; i < kGetWords; ++i) mine[i] = value(rank(), i);
  std::fill(put_at, acc_at + kGetWords, 0.0);
  std::vector<double> out(kWords), rows(kRows * kRowWords), got(kGetWords, -1.0), ones(kGetWords, 1.0);
  for (std::size_t i = 0; i < kWords; ++i) out[i] = value(rank(), i) + 0.5;
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = value(rank(), i) + 0.25;
  barrier();
  double* theirs = seg.base<double>(partner);
  Handle get = get_nb(theirs, got.data(), kGetWords * sizeof(double), partner);
  put(out.data(), theirs + kGetWords, kWords * sizeof(double), partner);
  const std::size_t src_stride = kRowWords * sizeof(double), dst_stride = 2 * kRowWords * sizeof(double);
  const std::size_t count[2] = {kRowWords * sizeof(double), kRows};
  put_strided(rows.data(), {&src_stride, 1}, theirs + kGetWords + kWords, {&dst_stride, 1}, count, partner);
  const double two = 2.0;
  acc(AccType::Double, &two, ones.data(), theirs + kGetWords + kWords + 2 * kRows * kRowWords, kGetWords * sizeof(double),
      partner);
  get.wait();
  fence(partner);
  barrier();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kGetWords; ++i) wrong += got[i] != value(partner, i);
  for (std::size_t i = 0; i < kWords; ++i) wrong += put_at[i] != value(partner, i) + 0.5;
  for (std::size_t r = 0; r < kRows; ++r)
    for (std::size_t i = 0; i < kRowWords; ++i) {
      wrong += strided_at[2 * r * kRowWords + i] != value(partner, r * kRowWords + i) + 0.25;
      wrong += strided_at[(2 * r + 1) * kRowWords + i] != 0.0;
    }
  for (std::size_t i = 0; i < kGetWords; ++i) wrong += acc_at[i] != 2.0;
  EXPECT_EQ(wrong, 0u) << "words got from and written by rank " << partner;
  barrier();
}

// A rank that waits in the library serves what arrives, and while its wait spins the service
// thread is not woken for it (the links' watches are switched off: Service::waiter_polls); once
// the wait is over they must be on again, or a rank that then computes (no library call) would
// leave every request to it unserved. Each round: the waiter waits on a flag while its partner
// gets from it and then sets the flag; then the waiter computes, looking only at its own memory,
// while the partner gets from it again and writes the word it looks at, then waits until the
// waiter says it saw it. A service that stayed switched off would leave those gets and that write
// unserved (the partner hangs in its get, the waiter's deadline passes).
TEST(TcpProgress, TheServiceServesAgainWhenAWaitEnds) {
  constexpr long kRounds = 40;
  constexpr int kGets = 20;
  constexpr std::size_t kData = 256;
  const int partner = partner_on_another_node();
  if (partner < 0) GTEST_SKIP() << "no rank of another node to pair with (the tcp transport carries nothing here)";
  const bool waiter = rank() < partner;
  // Mine: [flag | done | data]
  Segment seg((2 + kData) * sizeof(long));
  long* mine = seg.local<long>();
  mine[0] = mine[1] = 0;
  for (std::size_t i = 0; i < kData; ++i) mine[2 + i] = 1000L * rank() + static_cast<long>(i);
  barrier();
  long* theirs = seg.base<long>(partner);
  long late = 0, wrong = 0;
  for (long round = 1; round <= kRounds; ++round) {
    if (waiter) {
      wait_flag(&mine[0], round);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (std::atomic_ref<long>(mine[1]).load(std::memory_order_acquire) != round) {
        if (std::chrono::steady_clock::now() > deadline) {
          ++late;
          break;
        }
        std::this_thread::yield();  // computing: no library call
      }
      put_notify(nullptr, nullptr, 0, theirs, round, partner, Notify::Set);  // the round is over here
      continue;
    }
    const auto check = [&] {
      long got[kData];
      get(theirs + 2, got, sizeof got, partner);
      for (std::size_t i = 0; i < kData; ++i) wrong += got[i] != 1000L * partner + static_cast<long>(i);
    };
    check();  // served by the waiting partner
    put_notify(nullptr, nullptr, 0, theirs, round, partner, Notify::Set);
    for (int g = 0; g < kGets; ++g) check();  // the partner computes: served by its service thread
    put(&round, theirs + 1, sizeof round, partner);
    wait_flag(&mine[0], round);  // the partner saw the write: next round
  }
  EXPECT_EQ(late, 0) << "rounds in which rank " << partner << "'s write did not arrive within 30 s while this rank computed";
  EXPECT_EQ(wrong, 0) << "words got from rank " << partner;
  barrier();
  const TransportInfo info = transport_info(partner);
  ASSERT_EQ(info.name, "tcp");
  EXPECT_EQ(*info.find("service_watches_links"), "yes") << "after every wait ended";
  // The mechanism ran: the waits spun, or, where the host's ranks outnumber its cores (spin_limit
  // 0), yielded before they slept (PollPause::looks_soon) — either way they switched the service's
  // watches off (ARMADA_TCP_WAITER_POLL_US=0 leaves every request to the service thread instead).
  if (waiter && *info.find("waiter_poll_us") != "0") {
    EXPECT_GT(std::stol(*info.find("waiter_spells")), 0) << "no wait switched the service's watches off";
  }
}

// A ping-pong of requests to a rank that sleeps outside the library (its CPU idle): each one is
// run by its service thread, which polls between them and then reads the link it served last
// directly, leaving the link's watch armed (Link::look). Every answer must be right and in order
// (fetch-adds see each other's values, each get sees the put before it), and once the ping-pong
// is over the watch must still report what comes: the last write, sent after a pause longer
// than the thread polls, is seen only through it.
TEST(TcpProgress, APollingServiceReadsItsLastLinkDirectly) {
  constexpr long kRounds = 2000;
  const int partner = partner_on_another_node();
  if (partner < 0) GTEST_SKIP() << "no rank of another node to pair with (the tcp transport carries nothing here)";
  const bool origin = rank() < partner;
  Segment seg(4 * sizeof(long));  // [counter | word | done | spare]
  long* mine = seg.local<long>();
  mine[0] = mine[1] = mine[2] = 0;
  barrier();
  long* theirs = seg.base<long>(partner);
  if (origin) {
    long wrong = 0;
    for (long i = 0; i < kRounds; ++i) {
      wrong += fetch_add(GlobalPtr<long>(partner, theirs), 1L) != i;
      const long v = 7 * i + 1;
      put(&v, theirs + 1, sizeof v, partner);
      long back = 0;
      get(theirs + 1, &back, sizeof back, partner);
      wrong += back != v;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the service has stopped polling
    const long done = 1;
    put(&done, theirs + 2, sizeof done, partner);
    EXPECT_EQ(wrong, 0) << "answers out of order or wrong from rank " << partner;
  } else {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    bool late = false;
    while (std::atomic_ref<long>(mine[2]).load(std::memory_order_acquire) != 1) {
      if (std::chrono::steady_clock::now() > deadline) {
        late = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // no library call
    }
    EXPECT_FALSE(late) << "rank " << partner << "'s last write did not arrive within 60 s while this rank slept";
    EXPECT_EQ(std::atomic_ref<long>(mine[0]).load(), kRounds);
  }
  barrier();
  if (origin) return;
  // The mechanism ran where the thread polled: most requests were not met by a wake-up.
  const TransportInfo info = transport_info(partner);
  const long served = std::stol(*info.find("frames_served")), woken = std::stol(*info.find("service_wakeups"));
  const long direct = std::stol(*info.find("service_direct_reads"));
  std::printf("[rank %d] frames served %ld, service wake-ups %ld, read by direct looks %ld\n", rank(), served, woken, direct);
  if (woken < served / 2) {
    EXPECT_GT(direct, 0) << "a polling service read no frame through its direct look";
  }
}

// A request sent within the spin window of its link's last answer says so (kNextSoon: the
// target's service then polls for the next, whatever the CPUs' load, and the origin polls for its
// answer). Back-to-back fetch-adds must carry it (most of them: one that follows a preemption of
// its origin does not) and see each other's values in order; fetch-adds 2 ms apart never carry it.
TEST(TcpProgress, RequestsSentBackToBackSayTheNextComesSoon) {
  constexpr long kLoop = 1000, kPaused = 20;
  const int partner = partner_on_another_node();
  if (partner < 0) GTEST_SKIP() << "no rank of another node to pair with (the tcp transport carries nothing here)";
  const char* spin_us = std::getenv("ARMADA_TCP_SPIN_US");
  const long window_us = spin_us ? std::stol(spin_us) : 50;
  const bool origin = rank() < partner;
  Segment seg(sizeof(long));
  *seg.local<long>() = 0;
  const GlobalPtr<long> counter(partner, seg.base<long>(partner));
  auto said_next_soon = [&] { return std::stol(*transport_info(partner).find("requests_next_soon")); };
  barrier();
  const long before = said_next_soon();
  barrier();
  long wrong = 0;
  if (origin)
    for (long i = 0; i < kLoop; ++i) wrong += fetch_add(counter, 1L) != i;
  barrier();
  const long looped = said_next_soon() - before;
  barrier();
  if (origin) {
    for (long i = 0; i < kPaused; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      wrong += fetch_add(counter, 1L) != kLoop + i;
    }
  }
  barrier();
  const long paused = said_next_soon() - before - looped;
  EXPECT_EQ(wrong, 0) << "fetch-adds to rank " << partner << " out of order";
  if (origin) return;  // the counts are the target's
  std::printf("[rank %d] of %ld back-to-back requests %ld said the next comes soon; of %ld paused, %ld\n", rank(), kLoop,
              looped, kPaused, paused);
  if (window_us <= 0) {
    EXPECT_EQ(looped + paused, 0) << "ARMADA_TCP_SPIN_US=0 (no polling): no request may ask for it";
    return;
  }
  EXPECT_GE(looped, kLoop / 4) << "back-to-back requests did not say the next comes soon";
  if (window_us < 2000) {
    EXPECT_EQ(paused, 0) << "requests 2 ms apart said the next comes soon";
  }
}

// A payload from kDirectMin on is received straight into place, and whoever sleeps for its rest
// asks the kernel to wake it only once up to 256 KiB more have come (SO_RCVLOWAT, for that sleep
// only). Every size around those thresholds, put, got and accumulated by both ranks of a pair at
// once, arrives whole; and after each, an 8-byte put and get still go through at once: a low-water
// mark left raised on the link would leave them unseen (the row's timeout).
TEST(TcpPayloads, EverySizeAroundTheWakeThresholdArrivesWhole) {
  constexpr std::size_t kSizes[] = {(16 << 10) - 8, 16 << 10, (256 << 10) - 8, 256 << 10, (256 << 10) + 8,
                                    (1 << 20) + 24, (3 << 20) + 8};
  std::size_t total = 0, largest = 0;
  for (std::size_t n : kSizes) total += n, largest = std::max(largest, n);
  const int partner = partner_on_another_node();
  if (partner < 0) GTEST_SKIP() << "no rank of another node to pair with (the tcp transport carries nothing here)";
  const auto value = [](int r, std::size_t i) { return static_cast<double>(r) * 1e8 + static_cast<double>(i); };
  const std::size_t words = largest / sizeof(double), all = total / sizeof(double);
  // Mine: [the partner's gets' source | its puts | its accumulates | a word]
  Segment seg((words + 2 * all + 1) * sizeof(double));
  double* mine = seg.local<double>();
  for (std::size_t i = 0; i < words; ++i) mine[i] = value(rank(), i);
  std::fill(mine + words, mine + words + 2 * all + 1, 0.0);
  std::vector<double> out(words), got(all, -1.0), ones(words, 1.0);
  for (std::size_t i = 0; i < words; ++i) out[i] = value(rank(), i) + 0.5;
  barrier();
  double* theirs = seg.base<double>(partner);
  double* const word = theirs + words + 2 * all;
  const double two = 2.0;
  std::size_t at = 0, small_wrong = 0;
  for (std::size_t n : kSizes) {
    put(out.data(), theirs + words + at, n, partner);
    get(theirs, got.data() + at, n, partner);
    acc(AccType::Double, &two, ones.data(), theirs + words + all + at, n, partner);
    const double stamp = static_cast<double>(n);
    double back = 0;
    put(&stamp, word, sizeof stamp, partner);
    fence(partner);
    get(word, &back, sizeof back, partner);
    small_wrong += back != stamp;
    at += n / sizeof(double);
  }
  fence(partner);
  barrier();
  std::size_t wrong = 0;
  at = 0;
  for (std::size_t n : kSizes) {
    for (std::size_t i = 0; i < n / sizeof(double); ++i) {
      wrong += got[at + i] != value(partner, i);
      wrong += mine[words + at + i] != value(partner, i) + 0.5;
      wrong += mine[words + all + at + i] != 2.0;
    }
    at += n / sizeof(double);
  }
  EXPECT_EQ(wrong, 0u) << "words got from and written by rank " << partner;
  EXPECT_EQ(small_wrong, 0u) << "8-byte words read back after each large transfer";
  const TransportInfo info = transport_info(partner);
  ASSERT_EQ(info.name, "tcp");
  ASSERT_NE(info.find("payload_sleeps"), nullptr);
  std::printf("rank %d: %s sleeps for the rest of a direct payload\n", rank(), info.find("payload_sleeps")->c_str());
  barrier();
}

}  // namespace
}  // namespace armada::rma
