// ARMADA_TRANSPORT=auto's decision as a pure function of what init learned (no MPI): which
// candidates started and suit, and the busiest host's load. runtime.cpp's start_auto gathers the
// facts collectively (the same on every rank) and applies the decision; the rule and the
// measurements behind it: docs/rma.md, "The default inter-node transport".
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace armada::rma::detail {

/// One auto candidate, in preference order (the last is the fallback).
struct AutoCandidate {
  std::string name;
  bool starts = false;           ///< it can start on every rank
  bool suits = false;            ///< it started and suits as the default on every rank
  std::string why;               ///< why it cannot start, does not suit, or suits
  bool needs_idle_core = false;  ///< its operations wait for a thread that polls (TransportEntry)
};

/// A host's load at init: its ranks of this job, its online cores, and the other processes'
/// threads that were running while every rank of the job slept (sampled, self excluded).
struct HostLoad {
  int ranks = 0;
  int cores = 0;
  int others_running = 0;
  /// Cores left for a helper thread once the ranks and the other running threads have theirs.
  int idle_cores() const { return cores - ranks - others_running; }
  std::string describe() const;
};

struct AutoDecision {
  std::size_t index = 0;  ///< into the candidates
  std::string why;
};

/// Whether the decision depends on the load: no candidate before the fallback suits, one of
/// them starts, and the fallback needs an idle core. Only then does init measure it.
bool auto_needs_load(std::span<const AutoCandidate> candidates);

/// The rule: the first candidate that suits (the fallback otherwise), except that on a host
/// without an idle core (`busiest`, the host with the fewest) a fallback that needs one gives
/// way to the first earlier candidate that starts, though it does not suit: a polling thread
/// that gets no core delays every operation by the scheduler's slices (docs/rma.md).
/// `busiest` is consulted only when auto_needs_load(candidates).
AutoDecision choose_auto(std::span<const AutoCandidate> candidates, const std::optional<HostLoad>& busiest);

}  // namespace armada::rma::detail
