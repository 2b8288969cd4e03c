// The programs' kit: one option table gives the parser, the messages and the usage text; one
// JSON-lines writer. No MPI.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "armada/programs/json.hpp"
#include "armada/programs/options.hpp"

namespace programs = armada::programs;
using programs::Kind;

namespace {

struct Values {
  int reps = 7;
  bool quick = false, pin = true;
  std::string output, comm = "rma", first;
  std::vector<std::string> only;
};

programs::CommandLine table(Values& v) {
  return programs::CommandLine(
      {.name = "armada-test", .launch = "mpiexec -n 2 ", .epilogue = "Exit code: 0 ok, 2 bad input.\n"},
      {{.name = "first", .kind = Kind::choice, .value_name = "FAMILY", .help = "a family", .choices = {"a", "b"},
        .text_target = &v.first},
       {.name = "--reps", .kind = Kind::integer, .help = "repetitions", .default_text = "7", .min = 1, .max = 1000,
        .int_target = &v.reps},
       {.name = "--quick", .help = "short run", .flag_target = &v.quick},
       {.name = "--no-pin", .help = "no pinning", .flag_target = &v.pin, .flag_value = false},
       {.name = "--output", .kind = Kind::text, .value_name = "FILE", .help = "results\nas JSON lines", .nonempty = true,
        .alias = "-o", .text_target = &v.output},
       {.name = "--comm", .kind = Kind::choice, .help = "how", .default_text = "rma", .choices = {"rma", "mpi"},
        .text_target = &v.comm},
       {.name = "--only", .kind = Kind::list, .value_name = "G[,G..]", .help = "groups", .choices = {"x", "y", "z"},
        .list_target = &v.only}});
}

std::string error_of(std::vector<const char*> args) {
  args.insert(args.begin(), "armada-test");
  Values v;
  try {
    table(v).parse(static_cast<int>(args.size()), args.data());
  } catch (const programs::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ProgramsOptions, ValuesReachTheirTargets) {
  Values v;
  const char* argv[] = {"armada-test", "b", "--reps=9", "--quick", "--no-pin", "-o", "out.json", "--comm", "mpi", "--only", "z,x"};
  const programs::Parsed p = table(v).parse(11, argv);
  EXPECT_FALSE(p.help);
  EXPECT_TRUE(p.has("--reps") && p.has("--output") && p.has("first"));
  EXPECT_FALSE(p.has("--help"));
  EXPECT_EQ(v.first, "b");
  EXPECT_EQ(v.reps, 9);
  EXPECT_TRUE(v.quick);
  EXPECT_FALSE(v.pin);
  EXPECT_EQ(v.output, "out.json");
  EXPECT_EQ(v.comm, "mpi");
  EXPECT_EQ(v.only, (std::vector<std::string>{"z", "x"}));
}

TEST(ProgramsOptions, BadInputNamesTheOptionTheValueAndWhatItMustBe) {
  EXPECT_EQ(error_of({"--reps", "0"}), "--reps: '0' is not an integer in [1, 1000]");
  EXPECT_EQ(error_of({"--reps", "3x"}), "--reps: '3x' is not an integer in [1, 1000]");
  EXPECT_EQ(error_of({"--reps"}), "--reps needs a value");
  EXPECT_EQ(error_of({"--reps", "2", "--reps", "3"}), "--reps given twice");
  EXPECT_EQ(error_of({"--comm", "shm"}), "--comm: unknown value 'shm' (choose from rma, mpi)");
  EXPECT_EQ(error_of({"--only", "x,w"}), "--only: unknown value 'w' (choose from x, y, z)");
  EXPECT_EQ(error_of({"--only", "x,,y"}), "--only: 'x,,y' has an empty item");
  EXPECT_EQ(error_of({"--output", ""}), "--output: '' is empty (give a FILE)");
  EXPECT_EQ(error_of({"--bogus"}), "unknown option '--bogus' (see --help)");
  EXPECT_EQ(error_of({"c"}), "first: unknown value 'c' (choose from a, b)");
  EXPECT_EQ(error_of({"a", "b"}), "unexpected argument 'b' (see --help)");
  EXPECT_EQ(error_of({"--quick=1"}), "--quick takes no value, got '1'");
  EXPECT_EQ(error_of({"--quick", "--quick"}), "");  // a flag may repeat
}

TEST(ProgramsOptions, RequiredOptionsAndLastWins) {
  std::string cls;
  const programs::CommandLine required({.name = "armada-req"},
                                       {{.name = "--class", .kind = Kind::choice, .value_name = "X", .help = "class",
                                         .choices = {"S", "W"}, .required = true, .text_target = &cls}});
  const char* none[] = {"armada-req"};
  try {
    required.parse(1, none);
    ADD_FAILURE() << "a missing required option is bad input";
  } catch (const programs::UsageError& e) {
    EXPECT_STREQ(e.what(), "--class is required (choose from S, W)");
  }
  const char* help[] = {"armada-req", "--help"};
  EXPECT_TRUE(required.parse(2, help).help);  // --help needs no required option
  EXPECT_NE(required.usage().find("usage: armada-req --class S|W\n"), std::string::npos) << required.usage();
  EXPECT_NE(required.usage().find("  --class X  class (required: no default)\n"), std::string::npos) << required.usage();

  int n = 0;
  const programs::CommandLine last({.name = "armada-last", .last_wins = true},
                                   {{.name = "--n", .kind = Kind::integer, .min = 0, .max = 9, .int_target = &n}});
  const char* twice[] = {"armada-last", "--n", "1", "--n", "2"};
  last.parse(5, twice);
  EXPECT_EQ(n, 2);
}

TEST(ProgramsOptions, UsageIsGeneratedFromTheTable) {
  Values v;
  const std::string u = table(v).usage();
  EXPECT_EQ(u.rfind("usage: mpiexec -n 2 armada-test [FAMILY] [--reps N] [--quick] [--no-pin] [--output FILE]", 0), 0u) << u;
  EXPECT_NE(u.find("[--comm rma|mpi]"), std::string::npos) << u;
  EXPECT_NE(u.find("  --reps N        repetitions (default 7)\n"), std::string::npos) << u;
  EXPECT_NE(u.find("  --output FILE   results\n                  as JSON lines\n"), std::string::npos) << u;
  EXPECT_NE(u.find("  --help          this text\n"), std::string::npos) << u;
  EXPECT_TRUE(u.ends_with("  --help          this text\nExit code: 0 ok, 2 bad input.\n")) << u;
  EXPECT_LE(u.find('\n'), 100u);  // the usage line wraps before 100 columns
}

TEST(ProgramsOptions, HandleGivesTheExitCode) {
  Values v;
  const programs::CommandLine t = table(v);
  const char* help[] = {"armada-test", "--help"};
  const char* bad[] = {"armada-test", "--reps", "-1"};
  const char* good[] = {"armada-test", "--quick"};
  EXPECT_EQ(t.handle(2, help, false), std::optional<int>(programs::exit_ok));
  EXPECT_EQ(t.handle(3, bad, false), std::optional<int>(programs::exit_usage));
  programs::Parsed parsed;
  EXPECT_EQ(t.handle(2, good, false, &parsed), std::nullopt);
  EXPECT_TRUE(parsed.has("--quick"));
}

TEST(ProgramsJson, LinesInMemberOrder) {
  programs::json::JsonLine line;
  line.add("benchmark", "MG").add("ranks", 2).add("time_s", 1.5, "%.9g").add("ok", true).add("note", "a\"b");
  line.add("x", 0.1).add("nan", std::numeric_limits<double>::quiet_NaN(), 6).raw("nested", programs::json::JsonLine().add("k", 1L).str());
  EXPECT_EQ(line.str(),
            R"({"benchmark":"MG","ranks":2,"time_s":1.5,"ok":true,"note":"a\"b","x":0.1,"nan":null,"nested":{"k":1}})");
  EXPECT_EQ(programs::json::parse(line.str()).find("x")->number(), 0.1);
  programs::json::JsonLine extra;
  extra.add("a", 1);
  EXPECT_EQ(programs::json::JsonLine().add("z", 0).append(extra).str(), R"({"z":0,"a":1})");
  EXPECT_EQ(extra.members(), R"("a":1)");
  EXPECT_EQ(programs::json::JsonLine().str(), "{}");
}

// quote() and the parser read one table of escapes: every escape reads back as its character,
// every string quotes to text that parses back to it, an unknown escape is named.
TEST(ProgramsJson, EscapesQuoteAndParseBack) {
  namespace json = programs::json;
  EXPECT_EQ(json::parse(R"("\"\\\/\b\f\n\r\t\u00e9")").string(), "\"\\/\b\f\n\r\t\xc3\xa9");
  EXPECT_EQ(json::quote("a\"b\\c/\n\t\b\x01"), R"("a\"b\\c/\n\t\b\u0001")");
  const std::string every = [] {
    std::string s;
    for (int c = 1; c < 128; ++c) s += static_cast<char>(c);
    return s;
  }();
  EXPECT_EQ(json::parse(json::quote(every)).string(), every);
  try {
    json::parse(R"("\q")");
    ADD_FAILURE() << "an unknown escape parsed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown escape '\\q'"), std::string::npos) << e.what();
  }
}

TEST(ProgramsJson, FileOfLinesAndItsErrors) {
  const std::string path = ::testing::TempDir() + "armada_programs_kit.jsonl";
  {
    programs::json::JsonLinesFile f(path);
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_TRUE(f.write(programs::json::JsonLine().add("i", 1)));
    EXPECT_TRUE(f.write(R"({"i":2})"));
    EXPECT_TRUE(f.close());
  }
  std::ifstream in(path);
  std::string a, b;
  std::getline(in, a);
  std::getline(in, b);
  EXPECT_EQ(a, R"({"i":1})");
  EXPECT_EQ(b, R"({"i":2})");
  std::remove(path.c_str());
  EXPECT_EQ(programs::json::check_writable(path), "");
  std::remove(path.c_str());

  const std::string bad = "/nonexistent-dir/x.jsonl";
  programs::json::JsonLinesFile none(bad);
  EXPECT_FALSE(none.ok());
  EXPECT_EQ(none.error().rfind("--json '/nonexistent-dir/x.jsonl': cannot write: ", 0), 0u) << none.error();
  EXPECT_EQ(programs::json::check_writable(bad, "--output").rfind("--output '/nonexistent-dir/x.jsonl': cannot write", 0), 0u);
  EXPECT_NE(programs::json::write_lines(bad, {"{}"}), "");
  programs::json::JsonLinesFile nothing("");  // no file: writes are no-ops
  EXPECT_TRUE(nothing.ok() && !nothing.is_open() && nothing.write("{}") && nothing.close());
}
