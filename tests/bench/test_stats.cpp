// Statistics of the benchmark harness: median, min, max, percentiles; the measurement loop's
// arithmetic (figures from times, interleaving, calibration).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "common/measure.hpp"
#include "common/stats.hpp"

namespace bench = armada::bench;

TEST(Stats, OddCountMedianIsTheMiddleValueOfTheSortedSamples) {
  const std::vector<double> v{5, 1, 4, 2, 3};
  const bench::Stats s = bench::summarize(v);
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 5);
  EXPECT_EQ(s.count, 5u);
}

TEST(Stats, EvenCountMedianIsTheMeanOfTheTwoMiddleValues) {
  const std::vector<double> v{10, 2, 8, 4};
  const bench::Stats s = bench::summarize(v);
  EXPECT_EQ(s.median, 6);
  EXPECT_EQ(s.min, 2);
  EXPECT_EQ(s.max, 10);
}

TEST(Stats, OneSampleAndNone) {
  const std::vector<double> one{7.5};
  const bench::Stats s = bench::summarize(one);
  EXPECT_EQ(s.median, 7.5);
  EXPECT_EQ(s.min, 7.5);
  EXPECT_EQ(s.max, 7.5);
  EXPECT_EQ(bench::summarize(std::vector<double>{}).count, 0u);
}

TEST(Stats, PercentilesInterpolateBetweenClosestRanks) {
  const std::vector<double> v{40, 10, 30, 20, 50};  // sorted 10 20 30 40 50
  EXPECT_EQ(bench::percentile(v, 0), 10);
  EXPECT_EQ(bench::percentile(v, 100), 50);
  EXPECT_EQ(bench::percentile(v, 50), 30);
  EXPECT_EQ(bench::percentile(v, 25), 20);
  EXPECT_DOUBLE_EQ(bench::percentile(v, 10), 14);   // rank 0.4 between 10 and 20
  EXPECT_DOUBLE_EQ(bench::percentile(v, 90), 46);   // rank 3.6 between 40 and 50
  const std::vector<double> even{1, 2, 3, 4};
  EXPECT_EQ(bench::percentile(even, 50), bench::summarize(even).median);
}

TEST(Stats, PercentileRejectsNoSamplesAndOutOfRangeP) {
  EXPECT_THROW(bench::percentile(std::vector<double>{}, 50), std::invalid_argument);
  const std::vector<double> v{1, 2};
  EXPECT_THROW(bench::percentile(v, -1), std::invalid_argument);
  EXPECT_THROW(bench::percentile(v, 100.5), std::invalid_argument);
}

TEST(Measure, FigureConvertsTimesToMicrosecondsAndGigabytesPerSecond) {
  // 1000 iterations of 2 operations in 4 ms: 2 us per operation.
  EXPECT_DOUBLE_EQ(bench::figure(bench::Unit::Micros, 2, 0.004, 1000), 2.0);
  // 1000 iterations of 1 MB in 0.5 s: 2 GB/s.
  EXPECT_DOUBLE_EQ(bench::figure(bench::Unit::GBps, 1e6, 0.5, 1000), 2.0);
}

TEST(Measure, CalibratesThenInterleavesRepetitionsAndReportsEveryContestant) {
  // Fake clocks: each contestant reports a fixed time per iteration and logs its calls.
  std::string log;
  auto fake = [&log](char name, double per_iter) {
    return [&log, name, per_iter](std::size_t n) {
      log += name;
      return per_iter * static_cast<double>(n);
    };
  };
  std::vector<bench::Contestant> cs;
  cs.emplace_back("a", bench::Unit::Micros, 1, fake('a', 1e-6));
  cs.emplace_back("b", bench::Unit::Micros, 2, fake('b', 6e-6));  // 2 operations per iteration
  std::vector<std::size_t> iters;
  std::vector<std::vector<double>> samples;
  const auto stats = bench::measure(cs, 3, 0.001, &iters, &samples);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_NEAR(stats[0].median, 1.0, 1e-9);
  EXPECT_NEAR(stats[1].median, 3.0, 1e-9);  // 6 us per iteration of 2 operations
  EXPECT_EQ(stats[0].count, 3u);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[1].size(), 3u);
  // About 1 ms per repetition: 1000 and 166 iterations.
  EXPECT_NEAR(static_cast<double>(iters[0]), 1000, 1);
  EXPECT_NEAR(static_cast<double>(iters[1]), 166, 1);
  // Warm-up/calibration runs of a, then of b, one settling run of each, then the repetitions
  // interleaved.
  ASSERT_GT(log.size(), 8u);
  EXPECT_EQ(log.substr(log.size() - 8), "abababab");
  const std::string calibration = log.substr(0, log.size() - 8);
  const auto first_b = calibration.find('b');
  ASSERT_NE(first_b, std::string::npos);
  EXPECT_GT(first_b, 1u) << "several calibration runs of a (the warm-up) come first";
  EXPECT_EQ(calibration.find('a', first_b), std::string::npos) << calibration;
}

// A contestant calibrated while what it measures was still slow (a target that had just answered
// a command) gets its count settled by the run after every contestant's calibration: the
// repetitions last what was asked at the speed they run at.
TEST(Measure, SettlesEachCountOnceEveryContestantIsCalibrated) {
  bool b_ran = false;
  std::vector<bench::Contestant> cs;
  cs.emplace_back("a", bench::Unit::Micros, 1, [&b_ran](std::size_t n) {
    return (b_ran ? 1e-6 : 4e-6) * static_cast<double>(n);  // 4x slower until b has run
  });
  cs.emplace_back("b", bench::Unit::Micros, 1, [&b_ran](std::size_t n) {
    b_ran = true;
    return 1e-6 * static_cast<double>(n);
  });
  std::vector<std::size_t> iters;
  const auto stats = bench::measure(cs, 3, 0.001, &iters, nullptr);
  EXPECT_NEAR(static_cast<double>(iters[0]), 1000, 2) << "calibrated at 4 us an iteration: 250";
  EXPECT_NEAR(stats[0].median, 1.0, 1e-9);
}
