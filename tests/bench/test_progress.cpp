// The progress line: its text, plain lines when not a terminal, rewritten in place on one.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

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

}  // namespace

TEST(Progress, Text) {
  EXPECT_EQ(bench::progress_text("contig put 64 KiB", 5, 21), "[contig put 64 KiB 5/21]");
}

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    bench::Progress p(true, f, false);
    p.step("contig 8 B", 1, 2);
    p.step("contig 16 B", 2, 2);
    p.done();
  }
  EXPECT_EQ(contents(f), "[contig 8 B 1/2]\n[contig 16 B 2/2]\n");
  std::fclose(f);
}

TEST(Progress, RewrittenInPlaceOnATerminalAndClearedAtTheEnd) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    bench::Progress p(true, f, true);
    p.step("a", 1, 2);
    p.step("b", 2, 2);
  }  // the destructor clears the line
  EXPECT_EQ(contents(f), "\r[a 1/2]\033[K\r[b 2/2]\033[K\r\033[K");
  std::fclose(f);
}

TEST(Progress, SilentOnOtherRanks) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    bench::Progress p(false, f, true);
    p.step("a", 1, 1);
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}
