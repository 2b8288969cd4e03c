// What every family does with its measurements: run the contestants interleaved, check data,
// add records (JSON/CSV/plots) and table rows. Origin only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "suite/suite.hpp"

namespace armada::bench::suite {

constexpr int T = 1;  // the target rank of every family but fence and memory

/// What one contestant gave: figures in µs per operation, one per repetition.
struct Outcome {
  std::string op, method;
  std::vector<double> us;
  std::size_t iterations = 0;
  bool verified = false;
};

/// Adds the latency record (µs per operation) and, for transfers (`bandwidth`), the bandwidth
/// record of `bytes` per operation.
void add_records(Pass& p, const std::string& family, const Outcome& o, std::size_t bytes, std::size_t seg_bytes,
                 std::size_t nseg, double x, bool bandwidth);
/// A record of figures that are not µs per operation (overlap %, bytes).
Record plain_record(const Pass& p, const std::string& family, const std::string& op, const std::string& method,
                    const std::string& metric, const std::string& unit);

/// A new table section (the progress line is cleared first).
void section(Pass& p, const std::string& title);
/// One table row: `a` against baseline `b` (nullptr: none); a baseline of another route than
/// Armada's (report.hpp baseline_other_route) is labelled, not shown as a plain ratio.
void row(Pass& p, const std::string& label, std::size_t bytes, Unit unit, const Outcome& a, const Outcome* b);

/// Runs the contestants (interleaved, common/measure.hpp) and returns their outcomes named op/method.
std::vector<Outcome> run_all(Pass& p, std::vector<Contestant>& cs, const std::vector<std::string>& ops);

/// The outcome of `method` for `op` (any op when empty), or nullptr.
Outcome* find(std::vector<Outcome>& v, const std::string& method, const std::string& op = "");

/// Slots of a rotation that `calls` calls used.
inline std::size_t used(std::size_t calls, const Rotation& rot) { return calls < rot.count ? calls : rot.count; }
inline std::int64_t i64(std::size_t v) { return static_cast<std::int64_t>(v); }

/// Origin-side check; returns true if it passed (reports and counts the failure otherwise).
bool local_check(Pass& p, const std::string& what, const std::string& problem);
/// A check run by `rank`; returns true if it passed.
bool remote_ok(Pass& p, int rank, const Command& m, const std::string& what);

/// The fence family's target counts on `nranks` ranks: 1, 2, 4, ... below P-1, and P-1.
std::vector<int> fence_targets(int nranks);

}  // namespace armada::bench::suite
