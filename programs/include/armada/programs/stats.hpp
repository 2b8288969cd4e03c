// Statistics over the repetitions of one measurement (median, minimum, maximum, percentiles),
// for every program that repeats one: the benchmarks, and the apps' own alternated rounds.
// Standard C++ only (no MPI, no Armada layer).
#pragma once

#include <cstddef>
#include <span>

namespace armada::programs {

struct Stats {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t count = 0;   ///< number of repetitions summarized (0: not measured)
};

/// Median (mean of the two middle values for an even count), minimum and maximum.
Stats summarize(std::span<const double> samples);

/// The p-th percentile (p in [0, 100]) with linear interpolation between closest ranks
/// (percentile 50 is the median, 0 the minimum, 100 the maximum). Throws std::invalid_argument
/// for no samples or p outside [0, 100].
double percentile(std::span<const double> samples, double p);

}  // namespace armada::programs
