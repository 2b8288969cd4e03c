// The rdma and mpi-rma transports hold SIGTERM, SIGINT and SIGHUP back across the UCX and MPI calls
// that name shared memory for a moment (rma/src/transport/base/termination.hpp). A signal noted
// during a deferral must reach the program's own disposition when the last deferral ends, exactly
// once, whichever thread the kernel ran the handler in; a signal outside any deferral must reach it
// at once. A lost signal is the failure that matters: the launcher's SIGKILL a second later can
// then land inside the window and leave a SysV segment behind.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "transport/base/termination.hpp"

namespace {

using armada::rma::detail::TerminationDeferred;

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

// The SysV segments process `pid` created that still exist (marked for removal or not).
std::vector<int> segments_of(pid_t pid) {
  std::vector<int> ids;
  shm_info info{};
  const int last = shmctl(0, SHM_INFO, reinterpret_cast<shmid_ds*>(&info));
  for (int index = 0; index <= last; ++index) {
    shmid_ds ds{};
    const int id = shmctl(index, SHM_STAT, &ds);
    if (id >= 0 && ds.shm_cpid == pid) ids.push_back(id);
  }
  return ids;
}

// tests/rma/termination_churn.cpp: the SysV pattern UCX follows, in a deferral, without pause,
// in a thread that never takes the signal, so that SIGTERM (default action: the process ends) is
// handled by another thread. The process must never end between shmget and IPC_RMID, also when
// the handler saw no deferral live and a new one began while the process was on its way out.
pid_t start_sysv_churn() {
  const pid_t child = fork();
  if (child != 0) return child;
  execl(ARMADA_TERMINATION_CHURN, ARMADA_TERMINATION_CHURN, static_cast<char*>(nullptr));
  _exit(4);
}

TEST(TerminationOfTheProcess, ASignalThatEndsTheProcessNeverLandsInsideADeferral) {
  constexpr int kTries = 200;
  for (int t = 0; t < kTries; ++t) {
    const pid_t child = start_sysv_churn();
    ASSERT_GT(child, 0);
    std::this_thread::sleep_for(std::chrono::microseconds(500 + 37 * (t % 50)));
    kill(child, SIGTERM);
    int status = 0;
    pid_t ended = 0;
    for (int waited_ms = 0; (ended = waitpid(child, &status, WNOHANG)) == 0 && waited_ms < 10000; ++waited_ms)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (ended == 0) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      FAIL() << "try " << t << ": the process did not end within 10 s of SIGTERM (the signal was never acted on)";
    }
    ASSERT_EQ(ended, child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)
        << "try " << t << ": status " << status << " (exit 3: shmget failed, 4: exec of " << ARMADA_TERMINATION_CHURN << " failed)";
    const std::vector<int> left = segments_of(child);
    for (const int id : left) shmctl(id, IPC_RMID, nullptr);
    ASSERT_TRUE(left.empty()) << "try " << t << " of " << kTries
                              << ": the process ended inside a deferral and left its SysV segment";
  }
}
