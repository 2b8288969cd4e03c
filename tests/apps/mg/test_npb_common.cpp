// apps/common: NPB's random numbers against an independent implementation of NPB's own
// floating-point algorithm, the command line, the report and the JSON line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "armada/apps/npb_cli.hpp"
#include "armada/apps/npb_random.hpp"
#include "armada/apps/npb_report.hpp"

namespace ap = armada::apps;

namespace {

// NPB's randlc as specified: the seed and multiplier split into 23-bit halves held in doubles,
// every partial product exact in double precision. The library uses integers; both must agree
// to the bit.
double randlc_float_spec(double& x, double a) {
  const double r23 = std::ldexp(1.0, -23), t23 = std::ldexp(1.0, 23);
  const double r46 = r23 * r23, t46 = t23 * t23;
  double t1 = r23 * a;
  const double a1 = std::floor(t1), a2 = a - t23 * a1;
  t1 = r23 * x;
  const double x1 = std::floor(t1), x2 = x - t23 * x1;
  t1 = a1 * x2 + a2 * x1;
  const double t2 = std::floor(r23 * t1);
  const double z = t1 - t23 * t2;
  const double t3 = t23 * z + a2 * x2;
  const double t4 = std::floor(r46 * t3);
  x = t3 - t46 * t4;
  return r46 * x;
}

}  // namespace

TEST(NpbRandom, RandlcMatchesTheFloatingPointSpecification) {
  double x = 314159265.0, y = 314159265.0;
  for (int i = 0; i < 100000; ++i) {
    const double a = ap::randlc(x, ap::npb_multiplier), b = randlc_float_spec(y, ap::npb_multiplier);
    ASSERT_EQ(a, b) << "step " << i;
    ASSERT_EQ(x, y) << "step " << i;
    ASSERT_GT(a, 0.0);
    ASSERT_LT(a, 1.0);
  }
}

TEST(NpbRandom, VranlcIsRepeatedRandlc) {
  double x = 271828183.0, y = x;
  std::vector<double> v(1000);
  ap::vranlc(static_cast<long>(v.size()), x, ap::npb_multiplier, v.data());
  for (double got : v) EXPECT_EQ(got, ap::randlc(y, ap::npb_multiplier));
  EXPECT_EQ(x, y);
  double unchanged = 5.0;
  ap::vranlc(0, unchanged, ap::npb_multiplier, v.data());
  EXPECT_EQ(unchanged, 5.0);
}

TEST(NpbRandom, PowerSkipsAhead) {
  for (std::int64_t n : {0, 1, 2, 3, 17, 1000, 123457}) {
    double walked = 314159265.0;
    for (std::int64_t i = 0; i < n; ++i) ap::randlc(walked, ap::npb_multiplier);
    double jumped = 314159265.0;
    if (n == 0) {
      EXPECT_EQ(ap::npb_power(ap::npb_multiplier, 0), 1.0);
      continue;
    }
    // x_n = a^n x_0: one randlc step with multiplier a^n.
    ap::randlc(jumped, ap::npb_power(ap::npb_multiplier, n));
    EXPECT_EQ(jumped, walked) << "n = " << n;
  }
}

namespace {
const ap::NpbProgram program{"armada-test", "MG", "SWABC", "test program"};

ap::NpbParse parse(std::vector<const char*> args) {
  args.insert(args.begin(), "armada-test");
  return ap::parse_npb_command_line(static_cast<int>(args.size()), args.data(), program, false);
}
}  // namespace

TEST(NpbCommandLine, GoodArguments) {
  auto p = parse({"--class", "A", "--comm", "mpi", "--json", "out.json"});
  ASSERT_TRUE(p.args.has_value());
  EXPECT_EQ(p.args->problem_class, 'A');
  EXPECT_EQ(p.args->comm, ap::Comm::mpi);
  EXPECT_EQ(p.args->json_path, "out.json");
  p = parse({"--class=S"});
  ASSERT_TRUE(p.args.has_value());
  EXPECT_EQ(p.args->problem_class, 'S');
  EXPECT_EQ(p.args->comm, ap::Comm::rma);
  EXPECT_TRUE(p.args->json_path.empty());
  p = parse({"--help"});
  EXPECT_FALSE(p.args.has_value());
  EXPECT_EQ(p.exit_code, 0);
}

TEST(NpbCommandLine, BadArgumentsExitTwo) {
  for (auto args : std::vector<std::vector<const char*>>{{},
                                                          {"--class"},
                                                          {"--class", "D"},
                                                          {"--class", "SS"},
                                                          {"--class", "s"},
                                                          {"--class", "S", "--comm", "shm"},
                                                          {"--class", "S", "--class", "W"},
                                                          {"--class", "S", "--json", ""},
                                                          {"--class", "S", "--bogus"},
                                                          {"S"}}) {
    const auto p = parse(args);
    EXPECT_FALSE(p.args.has_value());
    EXPECT_EQ(p.exit_code, 2);
  }
}

namespace {
// What `print` writes to a FILE*, as one string.
template <class Print>
std::string printed(Print&& print) {
  std::FILE* f = std::tmpfile();
  if (!f) throw std::runtime_error("tmpfile failed");
  print(f);
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  std::fclose(f);
  return text;
}
}  // namespace

TEST(NpbReport, FortranE20_13) {
  EXPECT_EQ(ap::fortran_e20_13(0.5307707005734e-04), " 0.5307707005734E-04");
  EXPECT_EQ(ap::fortran_e20_13(-1.5), "-0.1500000000000E+01");
  EXPECT_EQ(ap::fortran_e20_13(0.0), " 0.0000000000000E+00");
  EXPECT_EQ(ap::fortran_e20_13(9.99999999999999e5), " 0.1000000000000E+07");
}

TEST(NpbReport, VerificationAndJson) {
  EXPECT_TRUE(ap::npb_verify(1.0 + 1e-9, 1.0, 1e-8));
  EXPECT_FALSE(ap::npb_verify(1.0 + 1e-7, 1.0, 1e-8));
  EXPECT_FALSE(ap::npb_verify(std::nan(""), 1.0, 1e-8));
  ap::NpbResult r;
  r.benchmark = "MG";
  r.problem_class = 'S';
  r.ranks = 2;
  r.comm = ap::Comm::mpi;
  r.time_s = 0.5;
  r.mops = 12.25;
  r.value = 0.5;
  r.reference = 0.25;
  r.verified = false;
  EXPECT_EQ(ap::npb_json_line(r),
            "{\"benchmark\":\"MG\",\"class\":\"S\",\"ranks\":2,\"comm\":\"mpi\",\"time_s\":0.5,\"mops\":12.25,"
            "\"value\":5.000000000000000e-01,\"reference\":2.500000000000000e-01,\"verified\":false}");
  r.value = std::nan("");
  EXPECT_NE(ap::npb_json_line(r).find("\"value\":null"), std::string::npos);
}

TEST(NpbReport, LaidOutAsNpbPrintsIt) {
  ap::NpbResult r;
  r.benchmark = "MG";
  r.problem_class = 'S';
  r.size = {32, 32, 32};
  r.iterations = 4;
  r.ranks = 2;
  r.time_s = 0.25;
  r.mops = 100;
  r.value_name = "L2 Norm";
  r.value = 0.5307707005734e-04;
  r.reference = 0.5307707005734e-04;
  r.verified = true;
  const std::string text = printed([&](std::FILE* f) {
    ap::print_npb_report(f, r);
    r.size = {1400, 0, 0};  // CG's one-number size
    ap::print_npb_report(f, r);
  });
  // Every value ends in column 44, as in NPB's MPI reports.
  for (const char* line : {" Class           =                        S\n",
                           " Size            =             32x  32x  32\n",
                           " Size            =                     1400\n",
                           " Iterations      =                        4\n",
                           " Time in seconds =                   0.2500\n",
                           " Total processes =                        2\n",
                           " Mop/s total     =                   100.00\n",
                           " Mop/s/process   =                    50.00\n",
                           " Operation type  =           floating point\n",
                           " Verification    =               SUCCESSFUL\n",
                           " Version         =                      3.4\n",
                           " Compile date    =  ",
                           "\n Compile options:\n    CXX          = ",
                           "\n    CMPI_LIB     = ",
                           "\n    CXXFLAGS     = ",
                           "-std=c++20",
                           "\n    RAND         = randi8\n",
                           " VERIFICATION SUCCESSFUL\n",
                           " L2 Norm is   0.5307707005734E-04\n"})
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "in:\n" << text;
}

// Class S runs take milliseconds: NPB's f12.2 would print 0.00.
TEST(NpbReport, TimesKeepFourSignificantDigits) {
  EXPECT_EQ(ap::npb_seconds(0.001234), "0.001234");
  EXPECT_EQ(ap::npb_seconds(0.01234), "0.01234");
  EXPECT_EQ(ap::npb_seconds(0.25), "0.2500");
  EXPECT_EQ(ap::npb_seconds(1.5), "1.500");
  EXPECT_EQ(ap::npb_seconds(12.5), "12.50");
  EXPECT_EQ(ap::npb_seconds(1234.567), "1234.57");
}

// MG and CG start with the same banner: NPB's title line, then one value column.
TEST(NpbReport, BannerIsTheSameForEveryBenchmark) {
  const std::string text = printed([](std::FILE* f) {
    ap::print_npb_banner(f, {"MG", 'S', {32, 32, 32}, 4, 2, ap::Comm::rma, {{"Process grid (z y x)", "2x1x1"}}});
    ap::print_npb_banner(f, {"CG", 'A', {14000, 0, 0}, 15, 4, ap::Comm::mpi, {{"Number of nonzeroes per row", "11"}}});
  });
  for (const char* line : {"\n NAS Parallel Benchmarks 3.4 -- MG Benchmark (Armada ",
                           "\n NAS Parallel Benchmarks 3.4 -- CG Benchmark (Armada ",
                           "\n Size:                           32x  32x  32\n",
                           "\n Size:                                  14000\n",
                           "\n Class:                                     A\n",
                           "\n Iterations:                                4\n",
                           "\n Number of processes:                       4\n",
                           "\n Communication:                           mpi\n",
                           "\n Process grid (z y x):                  2x1x1\n",
                           "\n Number of nonzeroes per row:              11\n"})
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "in:\n" << text;
}
