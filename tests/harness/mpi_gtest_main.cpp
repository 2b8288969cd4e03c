// GoogleTest main for tests under mpiexec.
//
// Every rank runs every test. After each test the ranks combine their results: a failure on any
// rank fails the test on every rank, and rank 0 prints it once, with each failing rank and its
// messages. Only rank 0 prints; the exit code is the same on every rank.
//
// A run also fails, on every rank, when a global environment (the library's init in SetUp, its
// finalize in TearDown) fails on any rank, and when no test ran at all: a library that does not
// start must not pass silently. (GoogleTest abandons the whole run when an environment throws,
// without OnTestProgramEnd, and counts that as no failure of any test; so the ranks agree on the
// environments here, and the summary is printed by finish(), after RUN_ALL_TESTS.)
//
// Rule for test authors: use EXPECT_*, not ASSERT_*, before a collective call, so that a failing
// rank still reaches the collective instead of leaving the others waiting in it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Sum over the ranks (collective).
int sum_over_ranks(int mine) {
  int total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

class MpiReporter : public ::testing::EmptyTestEventListener {
 public:
  MpiReporter(int rank, int size) : rank_(rank), size_(size) {}

  void OnTestProgramStart(const ::testing::UnitTest& unit) override {
    if (rank_ == 0)
      std::printf("[==========] %d tests from %d suites on %d MPI rank%s\n",
                  unit.test_to_run_count(), unit.test_suite_to_run_count(), size_, size_ == 1 ? "" : "s");
    start_ = std::chrono::steady_clock::now();
  }

  // Reached only by ranks whose environments set up; a rank whose setup threw makes the matching
  // call in finish(). If any rank failed, every rank abandons the run here (GoogleTest catches
  // the exception and runs no test), instead of running tests the failed rank will not join.
  void OnEnvironmentsSetUpEnd(const ::testing::UnitTest&) override {
    setup_agreed_ = true;
    setup_failures_ = sum_over_ranks(0);
    if (setup_failures_ > 0) throw std::runtime_error("another rank's test environment failed to set up");
  }

  void OnEnvironmentsTearDownEnd(const ::testing::UnitTest&) override { teardown_done_ = true; }

  void OnTestStart(const ::testing::TestInfo& info) override {
    in_test_ = true;
    messages_.clear();
    if (rank_ == 0) {
      std::printf("[ RUN      ] %s.%s\n", info.test_suite_name(), info.name());
      std::fflush(stdout);
    }
  }

  void OnTestPartResult(const ::testing::TestPartResult& part) override {
    if (!part.failed()) return;
    // Outside a test: a global environment's SetUp or TearDown (the library's init/finalize).
    (in_test_ ? messages_ : environment_messages_) +=
        std::string(part.file_name() ? part.file_name() : "?") + ":" + std::to_string(part.line_number()) + ": " +
        part.message() + "\n";
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    in_test_ = false;
    const auto* result = info.result();
    const int local_failed = result->Failed() ? 1 : 0;
    const int failures = sum_over_ranks(local_failed);
    if (sum_over_ranks(result->Skipped() ? 0 : 1) > 0 || failures) ++ran_;
    const std::string name = std::string(info.test_suite_name()) + "." + info.name();
    if (failures > 0) {
      failed_.push_back(name);
      print_messages(local_failed ? messages_ : std::string());
    }
    if (rank_ == 0) {
      const char* tag = failures ? "[  FAILED  ]" : result->Skipped() ? "[  SKIPPED ]" : "[       OK ]";
      std::printf("%s %s (%lld ms)", tag, name.c_str(), static_cast<long long>(result->elapsed_time()));
      if (failures) std::printf(" on %d of %d ranks", failures, size_);
      std::printf("\n");
      std::fflush(stdout);
    }
  }

  /// After RUN_ALL_TESTS, on every rank (collective): agrees on the environments, prints the
  /// summary on rank 0, and returns whether the run failed (the same on every rank).
  bool finish(const ::testing::UnitTest& unit) {
    if (!setup_agreed_) setup_failures_ = sum_over_ranks(1);  // this rank's setup threw
    // Teardown runs only after a setup that every rank passed.
    const int teardown_failures = setup_failures_ > 0 ? 0 : sum_over_ranks(teardown_done_ ? 0 : 1);
    const bool environment_failed = setup_failures_ > 0 || teardown_failures > 0;
    if (environment_failed) {
      if (rank_ == 0)
        std::printf("[  FAILED  ] the test environment (library %s) failed on %d of %d ranks:\n",
                    setup_failures_ ? "init, in SetUp" : "finalize, in TearDown",
                    setup_failures_ ? setup_failures_ : teardown_failures, size_);
      print_messages(environment_messages_);
    }
    if (rank_ == 0) print_summary(unit, environment_failed);
    return !failed_.empty() || environment_failed || ran_ == 0;
  }

 private:
  void print_summary(const ::testing::UnitTest& unit, bool environment_failed) const {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
    std::printf("[==========] %d of %d tests ran on %d ranks (%lld ms)\n", ran_, unit.test_to_run_count(), size_,
                static_cast<long long>(ms));
    std::printf("[  PASSED  ] %d tests\n", ran_ - static_cast<int>(failed_.size()));
    if (!failed_.empty()) {
      std::printf("[  FAILED  ] %zu tests, listed below:\n", failed_.size());
      for (const auto& n : failed_) std::printf("[  FAILED  ] %s\n", n.c_str());
    }
    if (ran_ == 0) std::printf("[  FAILED  ] no test ran (a filter matching nothing, every test skipped, or no start)\n");
    if (environment_failed) std::printf("[  FAILED  ] the test environment failed (see above)\n");
    std::fflush(stdout);
  }

  // Gathers the ranks' messages (empty where none) on rank 0, which prints them. Collective.
  void print_messages(const std::string& mine) const {
    int len = static_cast<int>(mine.size());
    std::vector<int> lens(static_cast<std::size_t>(size_));
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> displs(static_cast<std::size_t>(size_), 0);
    int total = 0;
    for (int r = 0; r < size_; ++r) {
      displs[static_cast<std::size_t>(r)] = total;
      total += lens[static_cast<std::size_t>(r)];
    }
    std::string all(static_cast<std::size_t>(rank_ == 0 ? total : 0), '\0');
    MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank_ != 0) return;
    // Every line carries its rank, so a failure reads (and greps) as "[rank 2] file:line: ...".
    for (int r = 0; r < size_; ++r) {
      const auto n = static_cast<std::size_t>(lens[static_cast<std::size_t>(r)]);
      if (n == 0) continue;
      std::size_t pos = static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]);
      const std::size_t end = pos + n;
      while (pos < end) {
        std::size_t nl = all.find('\n', pos);
        if (nl == std::string::npos || nl > end) nl = end;
        std::printf("[rank %d] %.*s\n", r, static_cast<int>(nl - pos), all.data() + pos);
        pos = nl + 1;
      }
    }
    std::fflush(stdout);
  }

  int rank_, size_;
  bool in_test_ = false;
  bool setup_agreed_ = false, teardown_done_ = false;
  int setup_failures_ = 0;
  int ran_ = 0;  // tests that ran on some rank (not skipped everywhere): the same on every rank
  std::string messages_, environment_messages_;
  std::vector<std::string> failed_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  ::testing::InitGoogleTest(&argc, argv);
  // Same order everywhere: the ranks' collectives must line up.
  GTEST_FLAG_SET(shuffle, false);
  if (rank != 0) GTEST_FLAG_SET(output, "");
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  auto* reporter = new MpiReporter(rank, size);
  listeners.Append(reporter);

  (void)RUN_ALL_TESTS();  // the local view; the combined result is finish()'s
  const bool failed = reporter->finish(*::testing::UnitTest::GetInstance());
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
  return failed ? 1 : 0;
}
