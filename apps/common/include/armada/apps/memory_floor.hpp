// The memory floor of a bandwidth-bound kernel, measured in the same launch as the kernel.
//
// A program counts the bytes one iteration of its kernel must move (its formula, in the
// program and in docs/apps.md) and calls measure_memory_floor with this rank's share: every
// rank of `comm` then runs a STREAM-like copy (a = b: 16 bytes an element, 8 read, 8 written)
// and triad (a = b + s c: 24 bytes) over that many bytes (at most memory_floor_max_volume), all ranks at once after a
// barrier, so that what is measured is the node's shared bandwidth for that working set under
// the launch's binding. Each kernel runs `repetitions` times; a repetition's time is the slowest
// rank's; the floor is the best repetition of the faster kernel (a floor is a lower bound: the
// best the memory system did, not its average).
#pragma once

#include <mpi.h>

namespace armada::apps {

struct MemoryFloor {
  double bytes = 0;     ///< one iteration's bytes, all ranks (the sum of the ranks' shares)
  double copy_bw = 0;   ///< bytes/s of the copy, all ranks together (best repetition)
  double triad_bw = 0;  ///< bytes/s of the triad, all ranks together (best repetition)
  double seconds = 0;   ///< bytes / the faster bandwidth: one iteration's floor
  /// The floor of `section_bytes` (all ranks) at the same bandwidth.
  double seconds_for(double section_bytes) const { return bytes > 0 ? seconds * section_bytes / bytes : 0; }
  /// The better of two measurements of the same bytes (before and after the benchmark).
  MemoryFloor best(const MemoryFloor& other) const;
};

/// The largest volume a rank's copy and triad move (bytes): the bandwidth of a bigger volume is
/// measured on this one (far beyond every cache it no longer depends on the volume).
inline constexpr double memory_floor_max_volume = 256e6;

/// Collective over `comm`. `rank_bytes` >= 0 is this rank's share of one iteration's bytes (a
/// rank with none still takes part); at least one element is moved per kernel, at most
/// `max_volume` bytes.
MemoryFloor measure_memory_floor(double rank_bytes, MPI_Comm comm, int repetitions = 7,
                                 double max_volume = memory_floor_max_volume);

}  // namespace armada::apps
