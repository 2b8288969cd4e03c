// Statistics over the repetitions of one measurement: the programs kit's (every program that
// repeats a measurement uses the same), named in the benchmarks' namespace.
#pragma once

#include "armada/programs/stats.hpp"

namespace armada::bench {

using programs::Stats;
using programs::summarize;
using programs::percentile;

}  // namespace armada::bench
