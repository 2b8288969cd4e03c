// Family "overlap": get_nb of 1 MiB, computation, wait: the share of the blocking get's time
// hidden behind the computation, against MPI_Rget; for Armada also with the target computing
// (spinning on a flag of its own memory, no library call) throughout, so that only the transport
// (shared memory, a node server, MPI's progress) can serve the gets.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "common/overlap.hpp"
#include "common/pattern.hpp"
#include "suite/families/common.hpp"

namespace armada::bench::suite {

namespace {

/// Repetitions at least, also with --quick: the share hidden is judged by its spread over them
/// (the headline marks it noisy above 25 points), which 3 repetitions cannot show.
constexpr int kMinReps = 5;

struct Series {
  std::string method;
  std::function<void()> blocking;
  std::function<void(std::uint64_t)> overlapped;
  std::byte* check_a;
  std::byte* check_b;
  bool target_busy = false;
};

/// Records and rows of one series' points.
void report_points(Pass& p, const Series& s, std::size_t n, const std::vector<OverlapPoint>& points, bool ok) {
  for (const OverlapPoint& pt : points) {
    Record r = plain_record(p, "overlap", "get_nb", s.method, "overlap", "%");
    r.bytes = n;
    r.x = pt.fraction * 100;
    r.stats = pt.overlap;
    r.p25 = percentile(pt.hidden, 25);
    r.p75 = percentile(pt.hidden, 75);
    r.verified = ok;
    p.report->records.push_back(r);
    Result row;
    row.bench = s.method + " compute " + std::to_string(static_cast<int>(pt.fraction * 100 + 0.5)) + "%";
    row.bytes = n;
    row.variant = p.transport;
    row.unit = Unit::Percent;
    row.armada = pt.overlap;
    p.progress->done();
    p.table->add(row);
    char text[160];
    std::snprintf(text, sizeof text, "   t_get %.1f us, t_compute %.1f us, t_total %.1f us (medians)", pt.t_op_us,
                  pt.t_compute_us, pt.t_total_us);
    p.table->note(text);
  }
}

/// Starts the target's computation; returns its first published spin count.
long start_target_loop(Pass& p) {
  call(p, T, {Cmd::Spin});
  usleep(2000);  // let it publish a first count
  return rma::get_value(rma::GlobalPtr<long>(T, reinterpret_cast<long*>(p.seg + p.layout.slots() + Layout::kSpins)));
}

/// Ends the target's computation; true if it was computing throughout (its count grew since
/// `before` and it saw the flag the origin set).
bool end_target_loop(Pass& p, long before) {
  const long after = rma::get_value(rma::GlobalPtr<long>(T, reinterpret_cast<long*>(p.seg + p.layout.slots() + Layout::kSpins)));
  rma::put_value(1L, rma::GlobalPtr<long>(T, reinterpret_cast<long*>(p.seg + p.layout.slots() + Layout::kFlag)));
  rma::fence(T);
  const std::int64_t total = reply(p, T);
  bool ok = local_check(p, "overlap, target busy", total < 0 ? "the target left its loop with a flag value other than 1" : "");
  ok = local_check(p, "overlap, target busy",
                   after > before ? "" : "the target's spin count did not grow (" + std::to_string(before) + " -> " +
                                             std::to_string(after) + "): it was not computing during the gets") && ok;
  if (ok)
    p.table->note("the target stayed in its computation loop throughout: its spin count grew " + std::to_string(before) +
                  " -> " + std::to_string(after) + " while the gets completed");
  return ok;
}

std::vector<Series> series_of(Pass& p, std::size_t n, std::uint64_t& sink) {
  std::byte* const B = p.seg + p.layout.b();
  std::vector<Series> series;
  auto armada_blocking = [&p, B, n] { rma::get(B, p.dst, n, T); };
  auto armada_overlapped = [&p, B, n, &sink](std::uint64_t iters) {
    rma::Handle h = rma::get_nb(B, p.dst + n, n, T);
    sink += busy(iters);
    h.wait();
  };
  series.push_back({"armada", armada_blocking, armada_overlapped, p.dst, p.dst + n});
  series.push_back({"armada_target_busy", armada_blocking, armada_overlapped, p.dst, p.dst + n, true});
  if (p.win.ok())
    series.push_back({"mpi_rget", [&p, n] { p.win.get_flush(p.mdst, n, T, p.layout.b()); },
                      [&p, n, &sink](std::uint64_t iters) {
                        MPI_Request r = p.win.rget(p.mdst + n, n, T, p.layout.b());
                        sink += busy(iters);
                        MPI_Wait(&r, MPI_STATUS_IGNORE);
                      },
                      p.mdst, p.mdst + n});
  return series;
}

}  // namespace

void family_overlap(Pass& p) {
  const std::size_t n = std::min<std::size_t>(1 * MiB, p.layout.region / 2);
  section(p, "overlap [" + p.transport + "]: get_nb of " + format_bytes(n) +
                   ", computation, wait (% of the blocking get hidden; target idle, or computing: target_busy)");
  std::vector<double> fractions{0, 0.25, 0.5, 1.0, 1.5, 2.0};
  if (p.opt->quick) fractions = {0, 1.0};
  std::uint64_t sink = 0;
  const std::vector<Series> series = series_of(p, n, sink);
  if (series.size() < 3) p.progress->skip(1);  // no MPI window: no MPI_Rget series
  for (const Series& s : series) {
    p.progress->next("overlap " + p.transport + " " + s.method);
    std::memset(s.check_a, 0, 2 * n);
    const long before = s.target_busy ? start_target_loop(p) : 0;
    const auto points = measure_overlap(fractions, std::max(p.opt->reps, kMinReps), p.opt->rep_seconds, p.busy_ns,
                                        s.blocking, s.overlapped);
    bool ok = !s.target_busy || end_target_loop(p, before);
    ok = local_check(p, "overlap " + s.method + " blocking get", check_pattern(s.check_a, n, kGetSeed)) && ok;
    ok = local_check(p, "overlap " + s.method + " nonblocking get", check_pattern(s.check_b, n, kGetSeed)) && ok;
    report_points(p, s, n, points, ok);
  }
  clobber(&sink);
}

}  // namespace armada::bench::suite
