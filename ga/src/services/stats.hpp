// GA_Print_stats' counters (diagnostics.cpp), fed by the one-sided operations and creation.
#pragma once

#include <cstddef>

namespace armada::ga {

enum class Stat { create, destroy, get, put, acc, scatter, gather, read_inc, count_ };
/// Counts one call of `what` by this process, moving `bytes` of array data.
void count_call(Stat what, std::size_t bytes = 0) noexcept;

}  // namespace armada::ga
