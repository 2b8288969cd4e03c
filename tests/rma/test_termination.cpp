// The rdma transport holds SIGTERM, SIGINT and SIGHUP back across UCX's SysV-creating calls
// (rma/src/transport/rdma/termination.hpp). A signal noted during a deferral must reach the
// program's own disposition when the last deferral ends, exactly once, whichever thread the
// kernel ran the handler in; a signal outside any deferral must reach it at once. A lost signal
// is the failure that matters: the launcher's SIGKILL a second later can then land inside the
// window and leave a SysV segment behind.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "transport/rdma/termination.hpp"

namespace {

using armada::rma::detail::rdma::TerminationDeferred;

std::atomic<int> g_delivered{0};
void count_signal(int) { g_delivered.fetch_add(1); }

// The program's own disposition, installed before the first deferral captures it.
class Termination : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    struct sigaction counting {};
    counting.sa_handler = count_signal;
    sigemptyset(&counting.sa_mask);
    sigaction(SIGTERM, &counting, nullptr);
    sigaction(SIGHUP, &counting, nullptr);
    const TerminationDeferred first;  // installs the deferring handler over ours
  }
  void SetUp() override { g_delivered = 0; }
};

bool delivered_within(int expected, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (g_delivered.load() < expected && std::chrono::steady_clock::now() < end) std::this_thread::yield();
  return g_delivered.load() == expected;
}

TEST_F(Termination, OutsideADeferralTheSignalArrivesAtOnce) {
  raise(SIGTERM);
  EXPECT_EQ(g_delivered.load(), 1);
}

TEST_F(Termination, NestedDeferralsDeliverOnceWhenTheLastEnds) {
  {
    const TerminationDeferred outer;
    {
      const TerminationDeferred inner;
      raise(SIGTERM);
      raise(SIGHUP);  // coalesced: the first signal noted is the one delivered
      EXPECT_EQ(g_delivered.load(), 0);
    }
    EXPECT_EQ(g_delivered.load(), 0) << "the outer deferral is still live";
  }
  EXPECT_EQ(g_delivered.load(), 1);
  raise(SIGTERM);
  EXPECT_EQ(g_delivered.load(), 2) << "nothing stays noted after delivery";
}

TEST_F(Termination, ASignalHandledInAnotherThreadIsDeliveredWhenTheDeferralEnds) {
  std::atomic<bool> noted{false};
  std::thread holder([&] {
    const TerminationDeferred deferred;
    while (!noted.load()) std::this_thread::yield();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the holder's deferral is live
  raise(SIGTERM);                                               // handled in this thread: noted
  EXPECT_EQ(g_delivered.load(), 0);
  noted = true;
  holder.join();
  EXPECT_EQ(g_delivered.load(), 1);
}

// One thread opens and closes deferrals without pause while this one takes signals: every
// signal must arrive, whether its handler saw a deferral live or not.
TEST_F(Termination, NoSignalIsLostWhileDeferralsComeAndGo) {
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    sigset_t only_main;  // the handler runs in the main thread, racing the churn's deferrals
    sigemptyset(&only_main);
    sigaddset(&only_main, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &only_main, nullptr);
    while (!stop.load(std::memory_order_relaxed)) {
      const TerminationDeferred deferred;
    }
  });
  constexpr int kSignals = 20000;
  for (int i = 1; i <= kSignals; ++i) {
    raise(SIGTERM);
    ASSERT_TRUE(delivered_within(i, std::chrono::seconds(5))) << "signal " << i << " of " << kSignals << " was lost";
  }
  stop = true;
  churn.join();
  EXPECT_EQ(g_delivered.load(), kSignals);
}

}  // namespace
