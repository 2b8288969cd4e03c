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
  /// No core left for a helper thread, and other processes hold some: the job's ranks compute
  /// or wait beside them, so a polling thread waits for the scheduler. A host that the job's
  /// own ranks fill is not starved this way: a rank that waits in Armada serves its node.
  bool starved_by_others() const { return idle_cores() < 1 && others_running > 0; }
  /// The order in which hosts decide (the largest wins the job's reduction): a host starved by
  /// others before any other, then by how far demand exceeds cores.
  int severity() const { return (starved_by_others() ? kStarved : 0) + ranks + others_running - cores; }
  std::string describe() const;

 private:
  static constexpr int kStarved = 1 << 24;  // above any deficit a host can have
};

struct AutoDecision {
  std::size_t index = 0;  ///< into the candidates
  std::string why;
};

/// Whether the decision depends on the load: no candidate before the fallback suits, one of
/// them starts, and the fallback needs an idle core. Only then does init measure it.
bool auto_needs_load(std::span<const AutoCandidate> candidates);

/// The rule: the first candidate that suits (the fallback otherwise), except that on a host
/// starved by others (`busiest`, the host of the largest severity()) a fallback that needs an
/// idle core gives way to the first earlier candidate that starts, though it does not suit: a
/// polling thread that gets no core delays every operation by the scheduler's slices. A host
/// full of the job's own ranks keeps the fallback: its waiting ranks serve, and programs whose
/// ranks wait inside Armada ran 8-18x slower on the emulating candidate (docs/rma.md).
/// `busiest` is consulted only when auto_needs_load(candidates).
AutoDecision choose_auto(std::span<const AutoCandidate> candidates, const std::optional<HostLoad>& busiest);

}  // namespace armada::rma::detail
