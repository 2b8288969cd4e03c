// The command-line options the single-program benchmarks share (armada-bench-arrays, -io, -ga),
// as rows of the programs' kit (armada/programs/options.hpp): parsing, messages and the usage
// text come from the one table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "armada/programs/options.hpp"

namespace armada::bench {

struct Options {
  int reps = 7;                   ///< --reps N: repetitions of every measurement (median, min, max)
  bool quick = false;             ///< --quick: few iterations, a subset of sizes
  std::string output;             ///< --output FILE: JSON lines, or CSV if FILE ends in .csv
  std::vector<std::string> only;  ///< --only GROUP[,GROUP...]: run only these groups (empty: all)
  double rep_seconds = 0.03;      ///< --rep-ms MS: target duration of one repetition
  bool pin = true;                ///< --no-pin: leave the CPU affinity as the launcher set it
};

/// Parses a benchmark's command line into `o` (every rank alike; only `print` prints): nullopt
/// to run, else the exit code (0 after --help, 2 after bad input, with the message and the
/// usage). `groups` are the names --only accepts; `extra` rows are the program's own (e.g.
/// armada-bench-io's --dir).
std::optional<int> parse_command_line(int argc, const char* const* argv, const std::string& program,
                                      const std::vector<std::string>& groups, Options& o, bool print,
                                      std::vector<programs::Option> extra = {});

/// True if group `name` is selected by --only (everything is selected when it is empty).
bool selected(const Options& options, const std::string& name);

}  // namespace armada::bench
