#include "report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include "armada/programs/json.hpp"
#include "memory.hpp"
#include "tce.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

namespace {

double reduce(double x, MPI_Op op) {
  double y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return y;
}

std::string tile_sizes(const OrbitalSpace& s) {
  std::int64_t lo = s.tiles.front().size, hi = lo;
  for (const Tile& t : s.tiles) lo = std::min(lo, t.size), hi = std::max(hi, t.size);
  return std::to_string(s.tiles.size()) + " tiles of " + std::to_string(lo) + (lo == hi ? "" : ".." + std::to_string(hi));
}

}  // namespace

Summary summarize(Impl impl, Schedule schedule, const RunResult& run) {
  Summary s;
  s.impl = impl;
  s.schedule = to_string(schedule);
  s.ranks = world_size();
  double busy = 0, flops = 0, bytes = 0, in_place = 0;
  for (std::size_t t = 0; t < term_count; ++t) {
    const TermStats& ts = run.terms[t];
    busy += ts.busy;
    flops += ts.flops;
    bytes += ts.bytes;
    in_place += ts.bytes_in_place;
    s.term_seconds[t] = run.seconds[t];
    s.term_flops[t] = reduce(ts.flops, MPI_SUM);
    s.term_tasks[t] = static_cast<std::int64_t>(reduce(static_cast<double>(ts.tasks), MPI_SUM));
    s.time_s += run.seconds[t];
  }
  s.flops = reduce(flops, MPI_SUM);
  s.bytes = reduce(bytes, MPI_SUM);
  s.bytes_in_place = reduce(in_place, MPI_SUM);
  s.busy_max = reduce(busy, MPI_MAX);
  s.busy_mean = reduce(busy, MPI_SUM) / s.ranks;
  s.imbalance = s.busy_mean > 0 ? s.busy_max / s.busy_mean : 1;
  s.gflops = s.time_s > 0 ? s.flops / s.time_s / 1e9 : 0;
  s.checksum = run.checksum;
  return s;
}

Summary summarize(const DgemmRun& run) {
  Summary s;
  s.impl = Impl::dgemm;
  s.schedule = "none";
  s.ranks = world_size();
  s.flops = reduce(run.flops, MPI_SUM);
  s.time_s = reduce(run.seconds, MPI_MAX);
  s.busy_max = s.time_s;
  s.busy_mean = reduce(run.seconds, MPI_SUM) / s.ranks;
  s.imbalance = s.busy_mean > 0 ? s.busy_max / s.busy_mean : 1;
  // The aggregate rate: every rank's own rate, added (all ranks ran at the same time).
  s.gflops = reduce(run.seconds > 0 ? run.flops / run.seconds / 1e9 : 0, MPI_SUM);
  return s;
}

void print_problem(const Problem& p, const Tensors& tensors, const TermPlans& plans, int ranks, Schedule schedule) {
  if (world_rank() != 0) return;
  const Settings& st = p.settings;
  std::printf("armada-ccsd: CCSD-like tiled contraction, o=%lld v=%lld tile=%lld irreps=%d, %d ranks, schedule %s\n",
              static_cast<long long>(st.occ), static_cast<long long>(st.virt), static_cast<long long>(st.tile), st.irreps,
              ranks, to_string(schedule));
  std::printf("  occupied: %s; virtual: %s\n", tile_sizes(p.occ).c_str(), tile_sizes(p.virt).c_str());
  std::printf("  stored (nonzero by symmetry):");
  for (const TiledTensor& t : tensors.all) {
    double dense = 1;
    for (int d = 0; d < 4; ++d) dense *= static_cast<double>(t.space(d).orbitals);
    std::printf(" %s %s (%.0f%%)", t.spec().name, human_bytes(8.0 * static_cast<double>(t.elements())).c_str(),
                100.0 * static_cast<double>(t.elements()) / dense);
  }
  std::printf("\n");
  for (const TermSpec& s : term_specs) {
    const bool a = s.streamed == Operand::a;
    const TermPlan& plan = plans[static_cast<std::size_t>(s.term)];
    std::printf("  %-10s %-40s %8zu tasks (%s streamed, %s replicated); schedule tce: %lld tasks\n", s.name, s.formula,
                plan.tasks.size(), spec_of(a ? s.a : s.b).name, spec_of(a ? s.b : s.a).name,
                static_cast<long long>(tce_task_count(plan)));
  }
}

void print_summary(const Summary& s) {
  if (world_rank() != 0) return;
  if (s.impl == Impl::dgemm)
    std::printf("\n[dgemm] local dgemm limit: the same task list's dgemms (every chunk, same shapes), round-robin, no communication\n");
  else
    std::printf("\n[%s] schedule %s\n", to_string(s.impl), s.schedule.c_str());
  std::printf("  %-10s %10s %12s %12s %10s\n", "term", "tasks", "GFlop", "time (s)", "GF/s");
  for (const TermSpec& t : term_specs) {
    const auto i = static_cast<std::size_t>(t.term);
    if (s.impl == Impl::dgemm) continue;  // one timing for all terms
    std::printf("  %-10s %10lld %12.3f %12.6f %10.3f\n", t.name, static_cast<long long>(s.term_tasks[i]),
                s.term_flops[i] / 1e9, s.term_seconds[i], s.term_seconds[i] > 0 ? s.term_flops[i] / s.term_seconds[i] / 1e9 : 0);
  }
  std::printf("  %-10s %10s %12.3f %12.6f %10.3f\n", "total", "", s.flops / 1e9, s.time_s, s.gflops);
  std::printf("  busy time per rank: max %.6f s, mean %.6f s; load imbalance (max/mean) %.4f\n", s.busy_max, s.busy_mean,
              s.imbalance);
  if (s.impl == Impl::dgemm) {
    std::printf("  aggregate local dgemm rate (sum of the ranks' rates): %.3f GF/s\n", s.gflops);
    return;
  }
  std::printf("  bytes fetched: %s (and %s read in place by their owner)\n", human_bytes(s.bytes).c_str(),
              human_bytes(s.bytes_in_place).c_str());
  std::printf("  checksum (sum of R): %.15e\n", *s.checksum);
  if (s.comparison) {
    const Comparison& c = *s.comparison;
    std::printf("  check against the serial reference: %lld elements of R, max relative difference %.3e: %s\n",
                static_cast<long long>(c.compared), c.max_relative, c.mismatches ? "FAILED" : "passed");
    if (c.mismatches)
      std::printf("  %lld elements differ by more than 1e-12 relative; first: %s\n", static_cast<long long>(c.mismatches),
                  c.first_mismatch.c_str());
  }
}

void print_ratios(const std::vector<Summary>& all) {
  if (world_rank() != 0 || all.size() < 2) return;
  std::printf("\nratios in this launch (GF/s):");
  for (const Summary& a : all)
    for (const Summary& b : all)
      if (&a != &b && a.impl != Impl::dgemm && b.gflops > 0 && (b.impl == Impl::dgemm || a.impl == Impl::armada))
        std::printf(" %s/%s %.3f", to_string(a.impl), to_string(b.impl), a.gflops / b.gflops);
  std::printf("\n");
}

std::string json_line(const Summary& s) {
  programs::json::JsonLine line;
  line.add("benchmark", "CCSD").add("ranks", s.ranks).add("schedule", s.schedule).add("time_s", s.time_s, 6);
  line.add("gflops", s.gflops, 6).add("imbalance", s.imbalance, 6);
  if (s.checksum) line.add("checksum", *s.checksum, "%.15e");
  else line.raw("checksum", "null");
  line.add("checked", s.checked()).add("impl", to_string(s.impl));
  return line.str();
}

}  // namespace armada::apps::ccsd
