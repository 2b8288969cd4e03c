// A wait that outlasts ARMADA_STALL_WARN seconds says so, once, on stderr: which rank waits, for
// which ranks and on which hosts. When a host dies or its link is cut, the job ends only when the
// MPI launcher notices (Open MPI's TCP BTL aborts the job on a peer's hang-up; a cut link is seen
// by the launcher's keepalive seconds later), and its message names a daemon's host, not the rank
// Armada was waiting for. MPI reports neither to Armada, so a wait that stops making progress is
// the only sign Armada has; it warns and goes on waiting (the peer may only be slow).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "common/topology.hpp"

namespace armada::rma::detail {

class StallWatch {
 public:
  /// `seconds` <= 0: never due.
  explicit StallWatch(int seconds) noexcept : limit_(seconds) {}

  /// Call once per round of a wait loop: true once, when the wait has lasted the limit. Reads the
  /// clock every 256th call only, and not at all in a wait that ends sooner (most do: every
  /// blocking put and get waits), so it costs the hot path an increment; the limit counts from
  /// the 256th round, microseconds after the wait began.
  bool due() noexcept {
    if (limit_ <= 0 || warned_ || (++calls_ & 255u) != 0) return false;
    const auto now = Clock::now();
    if (calls_ == 256) start_ = now;
    if (now - start_ < std::chrono::seconds(limit_)) return false;
    warned_ = true;
    return true;
  }

  int seconds() const noexcept { return limit_; }

 private:
  using Clock = std::chrono::steady_clock;
  int limit_;
  Clock::time_point start_{};
  unsigned calls_ = 0;
  bool warned_ = false;
};

/// "rank <r> (host <name>)", as the warnings name a peer.
std::string rank_on_host(int rank, const Topology& topology);

/// Prints on stderr "[rank <me>] <what>: no answer for <seconds> s from <peers> ...": `peers` names
/// the ranks and hosts that have not answered.
void warn_stall(const std::string& what, const std::string& peers, int seconds);

}  // namespace armada::rma::detail
