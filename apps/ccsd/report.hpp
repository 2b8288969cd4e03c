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
  std::array<double, term_count> term_seconds{}, term_flops{};
  std::optional<double> checksum;          ///< sum of R (none for dgemm)
  std::optional<Comparison> comparison;    ///< with --check
  bool checked() const { return comparison && comparison->mismatches == 0; }
};

/// Collective: reduces a run's figures over the ranks.
Summary summarize(Impl impl, Schedule schedule, const RunResult& run);
/// Collective: the dgemm limit's figures.
Summary summarize(const DgemmRun& run);

/// Rank 0 prints: the problem (tiles, stored sizes, tasks).
void print_problem(const Problem& p, const Tensors& tensors, const TermPlans& plans, int ranks, Schedule schedule);
/// Rank 0 prints one implementation's table.
void print_summary(const Summary& s);
/// Rank 0 prints the ratios of the implementations run in the same launch.
void print_ratios(const std::vector<Summary>& all);
std::string json_line(const Summary& s);

}  // namespace armada::apps::ccsd
