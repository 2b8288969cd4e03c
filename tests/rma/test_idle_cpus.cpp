// Whether a thread that waits may poll (transport/base/idle_cpus): the rule on given counts, the
// parse of /proc/loadavg, and the probe on this machine with every CPU made busy; and how many
// rounds the library's waits spin (transport/base/waiting.hpp, ARMADA_SPIN_LIMIT's rule).
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "transport/base/idle_cpus.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail {
namespace {

TEST(IdleCpus, ReadsTheRunningCountOfLoadavg) {
  EXPECT_EQ(running_in_loadavg("0.12 0.03 0.01 4/94 7055\n"), 4);
  EXPECT_EQ(running_in_loadavg("63.50 60.01 58.77 123/45678 1"), 123);
  EXPECT_EQ(running_in_loadavg("0.00 0.00 0.00 1/1 2"), 1);
  EXPECT_EQ(running_in_loadavg(""), -1);
  EXPECT_EQ(running_in_loadavg("no count here"), -1);
  EXPECT_EQ(running_in_loadavg("0.1 0.1 0.1 /94 7"), -1);
}

TEST(SpinRule, WaitersSpinOnlyWhereTheHostsRanksFitItsCores) {
  static_assert(spin_rounds_for(-1, 2, 2) == kSpinRounds);  // a core for each rank
  static_assert(spin_rounds_for(-1, 1, 64) == kSpinRounds);
  static_assert(spin_rounds_for(-1, 3, 2) == 0);             // oversubscribed: yield at once
  static_assert(spin_rounds_for(-1, 64, 2) == 0);
  EXPECT_EQ(spin_rounds_for(0, 1, 2), 0);                    // a value set is kept, either way
  EXPECT_EQ(spin_rounds_for(500, 4, 2), 500);
  EXPECT_EQ(spin_rounds_for(2000, 4, 2), 2000);
}

TEST(IdleCpus, IdleOnlyWithFewerOthersThanCpusAndEveryCpuUsable) {
  EXPECT_TRUE(idle_cpu_exists(0, 2, 2));
  EXPECT_TRUE(idle_cpu_exists(1, 2, 2));    // one rank polls, the other CPU is free
  EXPECT_FALSE(idle_cpu_exists(2, 2, 2));   // both ranks compute: polling would take a core
  EXPECT_FALSE(idle_cpu_exists(5, 2, 2));
  EXPECT_TRUE(idle_cpu_exists(62, 64, 64));
  EXPECT_FALSE(idle_cpu_exists(0, 1, 2));   // bound to one CPU: the machine's count says nothing of it
  EXPECT_FALSE(idle_cpu_exists(-1, 2, 2));  // unknown
  EXPECT_FALSE(idle_cpu_exists(0, 0, 0));
}

// Busy threads on every CPU: the probe (and the sampler of auto's rule) see no idle CPU; a kept
// answer is given while it is young enough, a new look once it is not.
TEST(IdleCpus, ProbeSeesEveryCpuBusy) {
  const int online = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const IdleCpuProbe probe;
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (int i = 0; i < online; ++i)
    busy.emplace_back([&stop] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const int others = others_running_now();
  bool idle[IdleCpuProbe::kBusyLooks];
  for (bool& look : idle) look = probe.idle_cpu(std::chrono::nanoseconds(0));
  stop = true;
  for (std::thread& t : busy) t.join();
  EXPECT_GE(others, online) << "busy threads running, every one counted";
  for (int i = 0; i + 1 < IdleCpuProbe::kBusyLooks; ++i)
    EXPECT_TRUE(idle[i]) << "look " << i + 1 << ": busy looks in a row stop a poll only once there are " << IdleCpuProbe::kBusyLooks;
  EXPECT_FALSE(idle[IdleCpuProbe::kBusyLooks - 1]);
  EXPECT_FALSE(probe.idle_cpu(std::chrono::hours(1))) << "the kept answer, not a new look";
}

TEST(IdleCpus, AThreadBoundToOneCpuOfSeveralNeverPolls) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "one CPU: binding to it is no subset";
  bool idle = true;
  std::thread bound([&idle] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof one, &one), 0);
    const IdleCpuProbe probe;
    idle = probe.idle_cpu(std::chrono::nanoseconds(0));
  });
  bound.join();
  EXPECT_FALSE(idle);
}

}  // namespace
}  // namespace armada::rma::detail
