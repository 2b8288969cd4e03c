// Statistics over the repetitions of one measurement.
#pragma once

#include <cstddef>
#include <span>

namespace armada::bench {

struct Stats {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t count = 0;   ///< number of repetitions summarized (0: not measured)
};

/// Median (mean of the two middle values for an even count), minimum and maximum.
Stats summarize(std::span<const double> samples);

}  // namespace armada::bench
