// The report of armada-ccsd: per implementation, figures gathered from every rank, printed on
// rank 0 as a table and as one JSON line
//   {"benchmark":"CCSD","ranks":…,"schedule":…,"time_s":…,"gflops":…,"imbalance":…,
//    "checksum":…,"checked":…,"impl":…}
// (the keys in its order, then the implementation; the last line printed is the main
// result, see main.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "contraction.hpp"
#include "dgemm_limit.hpp"
#include "options.hpp"
#include "reference.hpp"

namespace armada::apps::ccsd {

/// One implementation's figures, the same on every rank.
struct Summary {
  Impl impl = Impl::armada;
  std::string schedule;                    ///< "dynamic", "static" or "none" (dgemm)
  int ranks = 1;
  double time_s = 0;                       ///< the three terms' wall time
  double flops = 0;                        ///< useful flops, all ranks
  double gflops = 0;                       ///< flops / time_s (dgemm: sum of the ranks' rates)
  double busy_max = 0, busy_mean = 0;      ///< per-rank busy seconds
  double imbalance = 1;                    ///< busy_max / busy_mean
  double bytes = 0;                        ///< input bytes fetched, all ranks
  double bytes_in_place = 0;               ///< bytes read in place by their owner (streamed blocks, T), all ranks
  std::array<std::int64_t, term_count> term_tasks{};
  std::array<double, term_count> term_seconds{}, term_flops{}, term_gflops{};
  /// Per term, seconds per Step (scheduler.hpp): the mean and the maximum over the ranks.
  std::array<std::array<double, step_count>, term_count> step_mean{}, step_max{};
  int repeats = 1;                         ///< repetitions in this launch; the figures are the median one's
  double time_min_s = 0, time_max_s = 0;   ///< the range of time_s over the repetitions
  std::vector<std::pair<std::string, double>> ratios;  ///< "vs_<impl>": median over the repetitions of this/that GF/s
  std::optional<double> checksum;          ///< sum of R (none for dgemm)
  std::optional<Comparison> comparison;    ///< with --check
  bool checked() const { return comparison && comparison->mismatches == 0; }
};

/// Collective: reduces a run's figures over the ranks.
Summary summarize(Impl impl, Schedule schedule, const RunResult& run);
/// Collective: a dgemm limit's figures (`limit`: dgemm or dgemm-streamed).
Summary summarize(const DgemmRun& run, Impl limit);

/// The median repetition of one implementation (by time), with the range of the times and the
/// worst check of any repetition (a repetition that fails the check fails the launch).
Summary median_of(const std::vector<Summary>& repetitions);
/// Rank 0 prints one line for repetition `rep` (0-based) of `repeats`.
void print_repetition(const Summary& s, int rep, int repeats);
/// Rank 0 prints the problem (tiles, stored sizes, tasks).
void print_problem(const Problem& p, const Tensors& tensors, const TermPlans& plans, int ranks, Schedule schedule);
/// Rank 0 prints one implementation's table.
void print_summary(const Summary& s);
/// The combined floor of a launch: the dgemm limit plus the seconds the task list's bytes take at
/// the node's bandwidth, measured in the launch (gets at the copy bandwidth: each byte read and
/// written; accumulates at the triad bandwidth: R and the product read, R written).
struct MovesFloor {
  TaskListBytes bytes;          ///< all ranks
  double copy_bw = 0, triad_bw = 0;  ///< bytes/s, all ranks at once
  double seconds() const { return copy_bw > 0 && triad_bw > 0 ? 2 * bytes.gets / copy_bw + 3 * bytes.accumulates / triad_bw : 0; }
  /// The combined floor's rate for a repetition whose dgemm limit ran `limit`: its flops in
  /// the limit's time (flops / its rate) plus seconds().
  double gflops(const Summary& limit) const;
};

/// The ratios of the implementations run in the same launch: runs[i][r] is implementation i's
/// repetition r. Each ratio is taken within a repetition; rank 0 prints their median, range and
/// worst, and every implementation other than dgemm gets its medians in `medians[i].ratios`
/// ("vs_<impl>") with the worst repetition's ("vs_<impl>_min": GF/s ratios, the lowest is the
/// worst). With the dgemm limit and a measured `floor`, also "vs_floor": against the combined floor.
void print_ratios(const std::vector<std::vector<Summary>>& runs, std::vector<Summary>& medians,
                  const MovesFloor& floor = {});
std::string json_line(const Summary& s);

}  // namespace armada::apps::ccsd
