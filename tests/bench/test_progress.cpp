// The progress line: step k of n with an ETA, plain lines when not a terminal, rewritten in place
// on one.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

#include "common/progress.hpp"

namespace bench = armada::bench;

namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}

// What a Progress (shown on this rank or not, on a terminal or not) wrote while `steps` drove it
// and when it was destroyed.
template <class Steps>
std::string written(bool shown, bool terminal, Steps steps) {
  std::FILE* f = std::tmpfile();
  if (f == nullptr) {
    ADD_FAILURE() << "no temporary file";
    return {};
  }
  {
    bench::Progress p(shown, f, terminal);
    steps(p);
  }
  std::string s = contents(f);
  std::fclose(f);
  return s;
}

// A shown Progress that announces `total` steps, then takes one per (label, seconds after the
// first).
std::string stepped(bool terminal, std::size_t total, std::initializer_list<std::pair<const char*, int>> steps) {
  return written(true, terminal, [&](bench::Progress& p) {
    p.begin(total);
    const auto t0 = bench::Progress::Clock::now();
    for (const auto& [label, seconds] : steps) p.next(label, t0 + std::chrono::seconds(seconds));
  });
}

}  // namespace

TEST(Progress, Text) {
  EXPECT_EQ(bench::progress_text("contig shm 64 KiB", 5, 21, 80), "[step 5 of 21, ETA 1m20s: contig shm 64 KiB]");
  EXPECT_EQ(bench::progress_text("fence", 1, 3, -1), "[step 1 of 3, ETA ?: fence]");
}

TEST(Progress, Durations) {
  EXPECT_EQ(bench::format_duration(0), "0s");
  EXPECT_EQ(bench::format_duration(59.4), "59s");
  EXPECT_EQ(bench::format_duration(185), "3m05s");
  EXPECT_EQ(bench::format_duration(3720), "1h02m");
}

TEST(Progress, CountsStepsOfTheWholeRunAndEstimatesTheRest) {
  EXPECT_EQ(written(true, false,
                    [](bench::Progress& p) {
                      p.begin(4);
                      const auto t0 = bench::Progress::Clock::now();
                      p.next("contig shm 8 B", t0);                              // nothing done yet: no estimate
                      p.next("contig shm 16 B", t0 + std::chrono::seconds(10));  // 1 step took 10 s, 3 left
                      p.skip(1);                                                 // a pass that did not run
                      p.next("fence shm", t0 + std::chrono::seconds(20));        // 3 done in 20 s, 1 left
                      EXPECT_EQ(p.step(), 4u);
                      p.done();
                    }),
            "[step 1 of 4, ETA ?: contig shm 8 B]\n[step 2 of 4, ETA 30s: contig shm 16 B]\n"
            "[step 4 of 4, ETA 7s: fence shm]\n");
}

TEST(Progress, NeverShowsMoreStepsThanTheTotal) {
  EXPECT_EQ(stepped(false, 1, {{"a", 0}, {"b", 0}}), "[step 1 of 1, ETA ?: a]\n[step 2 of 2, ETA 0s: b]\n");
}

// The destructor clears the line.
TEST(Progress, RewrittenInPlaceOnATerminalAndClearedAtTheEnd) {
  EXPECT_EQ(stepped(true, 2, {{"a", 0}, {"b", 2}}),
            "\r[step 1 of 2, ETA ?: a]\033[K\r[step 2 of 2, ETA 2s: b]\033[K\r\033[K");
}

TEST(Progress, SilentOnOtherRanks) {
  EXPECT_EQ(written(false, true,
                    [](bench::Progress& p) {
                      p.begin(1);
                      p.next("a");
                    }),
            "");
}
