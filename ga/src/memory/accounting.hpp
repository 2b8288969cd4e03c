// GA's memory accounting (memory.cpp): the per-process limit array creation and GA_Getmem charge.
#pragma once

#include <cstddef>

#include "armada/rma/group.hpp"

namespace armada::ga {

enum class MemoryUse { array, getmem };
/// Charges `bytes` of this process to GA's memory limit. Collective over `g`: true on every
/// member when every member's charge fits its limit (then each is charged), false on every
/// member otherwise (nothing charged). Always true without a limit.
bool charge_memory(const rma::Group& g, std::size_t bytes, MemoryUse use);
void refund_memory(std::size_t bytes, MemoryUse use);
/// The most GA memory this process held at once (GA_Print_stats).
std::size_t peak_memory();
/// GA_Terminate: frees what GA_Getmem gave out, forgets the limit.
void reset_memory_accounting();

}  // namespace armada::ga
