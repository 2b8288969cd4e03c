#include "common/options.hpp"

#include <algorithm>

namespace armada::bench {

using programs::Kind;

std::optional<int> parse_command_line(int argc, const char* const* argv, const std::string& program,
                                      const std::vector<std::string>& groups, Options& o, bool print,
                                      std::vector<programs::Option> extra) {
  int rep_ms = 30;
  std::vector<programs::Option> rows{
      {.name = "--reps", .kind = Kind::integer,
       .help = "repetitions of every measurement; median, min and max are reported", .default_text = "7, 3 with --quick",
       .min = 1, .max = 1000, .int_target = &o.reps},
      {.name = "--quick", .help = "short run: few iterations, a subset of sizes", .flag_target = &o.quick},
      {.name = "--output", .kind = Kind::text, .value_name = "FILE",
       .help = "also write one record per line: JSON lines, or CSV if FILE ends in .csv", .nonempty = true,
       .alias = "-o", .text_target = &o.output},
      {.name = "--only", .kind = Kind::list, .value_name = "G[,G..]", .help = "run only these groups: " + programs::joined(groups, ","),
       .choices = groups, .list_target = &o.only},
      {.name = "--rep-ms", .kind = Kind::integer, .value_name = "MS",
       .help = "target duration of one repetition in milliseconds", .default_text = "30, 3 with --quick", .min = 1,
       .max = 10000, .int_target = &rep_ms},
      {.name = "--no-pin", .help = "do not pin the origin and the target to two different CPUs", .flag_target = &o.pin,
       .flag_value = false},
  };
  for (programs::Option& row : extra) rows.push_back(std::move(row));
  const programs::CommandLine command_line({.name = program, .launch = "mpiexec -n 2 ", .last_wins = true}, std::move(rows));
  programs::Parsed parsed;
  if (const auto exit_code = command_line.handle(argc, argv, print, &parsed)) return exit_code;
  o.rep_seconds = rep_ms / 1000.0;
  if (o.quick) {
    if (!parsed.has("--reps")) o.reps = 3;
    if (!parsed.has("--rep-ms")) o.rep_seconds = 0.003;
  }
  return std::nullopt;
}

bool selected(const Options& options, const std::string& name) {
  return options.only.empty() || std::find(options.only.begin(), options.only.end(), name) != options.only.end();
}

}  // namespace armada::bench
