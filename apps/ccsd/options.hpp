// The command line of armada-ccsd.
//
//   armada-ccsd [--occ O] [--virt V] [--tile T] [--irreps N] [--schedule dynamic|static|locality]
//               [--impl armada,ga,ga-tce,dgemm,dgemm-streamed] [--repeats N] [--check] [--json FILE]
//
// --impl lists the implementations to run, in order, in this one launch (default: armada):
// armada (armada::arrays), ga (Debian's Global Arrays on ARMCI-MPI), ga-tce (Global Arrays with
// the TCE schedule whatever --schedule says: the baseline production codes run), dgemm (the local
// dgemm limit at the same tile shapes), dgemm-streamed (the same, every chunk's streamed operand
// at its own address, read from memory as the contraction reads it). --repeats N runs that list
// N times, the order rotating from one repetition to the next, and reports each
// implementation's median repetition.
#pragma once

#include <string>
#include <vector>

#include "problem.hpp"
#include "scheduler.hpp"

namespace armada::apps::ccsd {

enum class Impl { armada, ga, ga_tce, dgemm, dgemm_streamed };
/// dgemm and dgemm-streamed: the local dgemm limit (dgemm_limit.hpp), not a contraction.
inline bool is_limit(Impl i) { return i == Impl::dgemm || i == Impl::dgemm_streamed; }

/// The schedule implementation `i` runs with: ga-tce always the TCE one, the others `chosen`.
Schedule schedule_of(Impl i, Schedule chosen);

/// The documented case (docs/apps.md, apps/ccsd/bench-cases.txt): what options not given take.
inline constexpr Settings documented_case{24, 96, 16, 4};
const char* to_string(Impl i);

struct Options {
  Settings settings;
  Schedule schedule = Schedule::dynamic;
  std::vector<Impl> impls{Impl::armada};
  int repeats = 1;
  bool check = false;
  std::string json_file;
  bool help = false;
};

/// Parses argv; throws InputError naming the option and value on anything wrong (unknown or
/// repeated option, missing or malformed value, `ga` when the
/// program was built without Global Arrays). Settings are validated too.
Options parse_options(int argc, const char* const* argv, bool ga_available);

std::string usage();

}  // namespace armada::apps::ccsd
