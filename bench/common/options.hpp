// Command-line options shared by the benchmarks.
#pragma once

#include <string>

namespace armada::bench {

struct Options {
  int reps = 7;                 ///< --reps N: repetitions of every measurement (median, min, max)
  bool quick = false;           ///< --quick: few iterations, a subset of sizes
  std::string output;           ///< --output FILE: JSON lines, or CSV if FILE ends in .csv
  std::string only;             ///< --only GROUP[,GROUP...]: run only these groups
  double rep_seconds = 0.03;    ///< --rep-ms MS: target duration of one repetition
  bool pin = true;              ///< --no-pin: leave the CPU affinity as the launcher set it
  bool help = false;
};

/// Parses argv (after MPI removed its own arguments). Throws std::invalid_argument with a
/// message naming the bad option.
Options parse_options(int argc, char** argv);

/// The usage text; `groups` lists the names --only accepts.
std::string usage(const char* program, const std::string& groups);

/// The first group named by --only that is not in the comma-separated `groups`; empty if all
/// are known.
std::string unknown_group(const Options& options, const std::string& groups);

/// True if group `name` is selected by --only (everything is selected when it is empty).
bool selected(const Options& options, const std::string& name);

}  // namespace armada::bench
