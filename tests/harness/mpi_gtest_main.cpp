// GoogleTest main for tests under mpiexec.
//
// Every rank runs every test. After each test the ranks combine their results: a failure on any
// rank fails the test on every rank, and rank 0 prints it once, with each failing rank and its
// messages. Only rank 0 prints; the exit code is the same on every rank.
//
// Rule for test authors: use EXPECT_*, not ASSERT_*, before a collective call, so that a failing
// rank still reaches the collective instead of leaving the others waiting in it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

class MpiReporter : public ::testing::EmptyTestEventListener {
 public:
  MpiReporter(int rank, int size) : rank_(rank), size_(size) {}

  int failed_tests() const { return static_cast<int>(failed_.size()); }

  void OnTestProgramStart(const ::testing::UnitTest& unit) override {
    if (rank_ == 0)
      std::printf("[==========] %d tests from %d suites on %d MPI rank%s\n",
                  unit.test_to_run_count(), unit.test_suite_to_run_count(), size_, size_ == 1 ? "" : "s");
    start_ = std::chrono::steady_clock::now();
  }

  void OnTestStart(const ::testing::TestInfo& info) override {
    messages_.clear();
    if (rank_ == 0) {
      std::printf("[ RUN      ] %s.%s\n", info.test_suite_name(), info.name());
      std::fflush(stdout);
    }
  }

  void OnTestPartResult(const ::testing::TestPartResult& part) override {
    if (!part.failed()) return;
    messages_ += std::string(part.file_name() ? part.file_name() : "?") + ":" +
                 std::to_string(part.line_number()) + ": " + part.message() + "\n";
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    const auto* result = info.result();
    int local_failed = result->Failed() ? 1 : 0;
    int failures = 0;
    MPI_Allreduce(&local_failed, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const std::string name = std::string(info.test_suite_name()) + "." + info.name();
    if (failures > 0) {
      failed_.push_back(name);
      report_failure(local_failed);
    }
    if (rank_ == 0) {
      const char* tag = failures ? "[  FAILED  ]" : result->Skipped() ? "[  SKIPPED ]" : "[       OK ]";
      std::printf("%s %s (%lld ms)", tag, name.c_str(), static_cast<long long>(result->elapsed_time()));
      if (failures) std::printf(" on %d of %d ranks", failures, size_);
      std::printf("\n");
      std::fflush(stdout);
    }
  }

  void OnTestProgramEnd(const ::testing::UnitTest& unit) override {
    if (rank_ != 0) return;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
    std::printf("[==========] %d tests ran on %d ranks (%lld ms)\n", unit.test_to_run_count(), size_,
                static_cast<long long>(ms));
    std::printf("[  PASSED  ] %d tests\n", unit.test_to_run_count() - failed_tests());
    if (!failed_.empty()) {
      std::printf("[  FAILED  ] %d tests, listed below:\n", failed_tests());
      for (const auto& n : failed_) std::printf("[  FAILED  ] %s\n", n.c_str());
    }
    std::fflush(stdout);
  }

 private:
  // Gathers the failing ranks' messages on rank 0, which prints them.
  void report_failure(int local_failed) {
    std::string mine = local_failed ? messages_ : std::string();
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
  }

  int rank_, size_;
  std::string messages_;
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

  const int local_rc = RUN_ALL_TESTS();  // local view; the combined result is below
  (void)local_rc;
  const int failed = reporter->failed_tests();  // identical on every rank
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
  return failed ? 1 : 0;
}
