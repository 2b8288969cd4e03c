#include "report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include "armada/apps/allreduce.hpp"
#include "armada/programs/json.hpp"
#include "armada/programs/stats.hpp"
#include "memory.hpp"
#include "tce.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

namespace {

std::string tile_sizes(const OrbitalSpace& s) {
  std::int64_t lo = s.tiles.front().size, hi = lo;
  for (const Tile& t : s.tiles) lo = std::min(lo, t.size), hi = std::max(hi, t.size);
  return std::to_string(s.tiles.size()) + " tiles of " + std::to_string(lo) + (lo == hi ? "" : ".." + std::to_string(hi));
}

/// Where each term's time went on the ranks (scheduler.hpp's Steps), in ms: mean/max over the ranks.
void print_steps(const Summary& s) {
  std::printf("  where the time went, ms per rank (mean/max over the ranks):\n  %-10s", "term");
  for (std::size_t i = 0; i < step_count; ++i) std::printf(" %13s", to_string(static_cast<Step>(i)));
  std::printf("\n");
  for (const TermSpec& t : term_specs) {
    const auto term = static_cast<std::size_t>(t.term);
    std::printf("  %-10s", t.name);
    for (std::size_t i = 0; i < step_count; ++i) {
      char cell[32];
      std::snprintf(cell, sizeof cell, "%.2f/%.2f", 1e3 * s.step_mean[term][i], 1e3 * s.step_max[term][i]);
      std::printf(" %13s", cell);
    }
    std::printf("\n");
  }
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
    s.term_flops[t] = allreduce(ts.flops, MPI_SUM);
    s.term_tasks[t] = static_cast<std::int64_t>(allreduce(static_cast<double>(ts.tasks), MPI_SUM));
    s.term_gflops[t] = run.seconds[t] > 0 ? s.term_flops[t] / run.seconds[t] / 1e9 : 0;
    s.time_s += run.seconds[t];
  }
  for (std::size_t t = 0; t < term_count; ++t) {
    MPI_Allreduce(run.terms[t].steps.data(), s.step_mean[t].data(), step_count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(run.terms[t].steps.data(), s.step_max[t].data(), step_count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (double& v : s.step_mean[t]) v /= s.ranks;
  }
  s.flops = allreduce(flops, MPI_SUM);
  s.bytes = allreduce(bytes, MPI_SUM);
  s.bytes_in_place = allreduce(in_place, MPI_SUM);
  s.busy_max = allreduce(busy, MPI_MAX);
  s.busy_mean = allreduce(busy, MPI_SUM) / s.ranks;
  s.imbalance = s.busy_mean > 0 ? s.busy_max / s.busy_mean : 1;
  s.gflops = s.time_s > 0 ? s.flops / s.time_s / 1e9 : 0;
  s.checksum = run.checksum;
  return s;
}

Summary summarize(const DgemmRun& run, Impl limit) {
  Summary s;
  s.impl = limit;
  s.schedule = "none";
  s.ranks = world_size();
  s.flops = allreduce(run.flops, MPI_SUM);
  s.time_s = allreduce(run.seconds, MPI_MAX);
  s.busy_max = s.time_s;
  s.busy_mean = allreduce(run.seconds, MPI_SUM) / s.ranks;
  s.imbalance = s.busy_mean > 0 ? s.busy_max / s.busy_mean : 1;
  // The aggregate rate: every rank's own rate, added (all ranks ran at the same time); per term
  // likewise (the terms follow each other without a barrier).
  const auto rate = [](double flops, double seconds) { return seconds > 0 ? flops / seconds / 1e9 : 0; };
  s.gflops = allreduce(rate(run.flops, run.seconds), MPI_SUM);
  for (std::size_t t = 0; t < term_count; ++t) {
    s.term_flops[t] = allreduce(run.term_flops[t], MPI_SUM);
    s.term_seconds[t] = allreduce(run.term_seconds[t], MPI_MAX);
    s.term_gflops[t] = allreduce(rate(run.term_flops[t], run.term_seconds[t]), MPI_SUM);
  }
  return s;
}

Summary median_of(const std::vector<Summary>& repetitions) {
  std::vector<const Summary*> by_time;
  for (const Summary& s : repetitions) by_time.push_back(&s);
  std::sort(by_time.begin(), by_time.end(), [](const Summary* a, const Summary* b) { return a->time_s < b->time_s; });
  Summary m = *by_time[by_time.size() / 2];
  m.repeats = static_cast<int>(repetitions.size());
  m.time_min_s = by_time.front()->time_s;
  m.time_max_s = by_time.back()->time_s;
  for (const Summary& s : repetitions)
    if (s.comparison && !s.checked() && m.checked()) m.comparison = s.comparison;
  return m;
}

void print_repetition(const Summary& s, int rep, int repeats) {
  if (world_rank() != 0) return;
  std::printf("[%s] repetition %d/%d: %.6f s, %.3f GF/s\n", to_string(s.impl), rep + 1, repeats, s.time_s, s.gflops);
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
  const std::string median = s.repeats > 1 ? ", the median of " + std::to_string(s.repeats) + " repetitions" : "";
  if (is_limit(s.impl))
    std::printf("\n[%s] local dgemm limit: the same task list's dgemms (every chunk, same shapes), round-robin, no "
                "communication, %s%s\n", to_string(s.impl),
                s.impl == Impl::dgemm ? "operands reused (in cache)" : "every streamed operand read from memory once",
                median.c_str());
  else
    std::printf("\n[%s] schedule %s%s\n", to_string(s.impl), s.schedule.c_str(), median.c_str());
  std::printf("  %-10s %10s %12s %12s %10s\n", "term", "tasks", "GFlop", "time (s)", "GF/s");
  for (const TermSpec& t : term_specs) {
    const auto i = static_cast<std::size_t>(t.term);
    const std::string tasks = is_limit(s.impl) ? "" : std::to_string(s.term_tasks[i]);
    std::printf("  %-10s %10s %12.3f %12.6f %10.3f\n", t.name, tasks.c_str(), s.term_flops[i] / 1e9, s.term_seconds[i],
                s.term_gflops[i]);
  }
  std::printf("  %-10s %10s %12.3f %12.6f %10.3f\n", "total", "", s.flops / 1e9, s.time_s, s.gflops);
  if (s.repeats > 1)
    std::printf("  time over the %d repetitions: median %.6f s, min %.6f s, max %.6f s\n", s.repeats, s.time_s,
                s.time_min_s, s.time_max_s);
  std::printf("  busy time per rank: max %.6f s, mean %.6f s; load imbalance (max/mean) %.4f\n", s.busy_max, s.busy_mean,
              s.imbalance);
  if (is_limit(s.impl)) {
    std::printf("  aggregate local dgemm rate (sum of the ranks' rates): %.3f GF/s\n", s.gflops);
    return;
  }
  if (s.schedule != to_string(Schedule::tce)) print_steps(s);
  std::printf("  bytes fetched: %s (and %s read in place: by their owner, or from this node's shared memory)\n",
              human_bytes(s.bytes).c_str(),
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

double MovesFloor::gflops(const Summary& limit) const {
  const double limit_s = limit.gflops > 0 ? limit.flops / (limit.gflops * 1e9) : 0;
  return limit_s + seconds() > 0 ? limit.flops / (limit_s + seconds()) / 1e9 : 0;
}

namespace {

// One ratio's figures over the repetitions: rank 0 prints "name median [min..max]"; the medians
// get "vs_<key>" (median) and "vs_<key>_min" (the worst repetition).
void add_ratio(const std::string& name, const std::string& key, const std::vector<double>& r, std::size_t repeats,
               Summary& median) {
  if (r.empty()) return;
  const programs::Stats ratio = programs::summarize(r);
  median.ratios.emplace_back("vs_" + key, ratio.median);
  median.ratios.emplace_back("vs_" + key + "_min", ratio.min);
  if (world_rank() != 0) return;
  std::printf(" %s %.3f", name.c_str(), ratio.median);
  if (repeats > 1) std::printf(" [%.3f..%.3f]", ratio.min, ratio.max);
}

}  // namespace

void print_ratios(const std::vector<std::vector<Summary>>& runs, std::vector<Summary>& medians, const MovesFloor& floor) {
  if (runs.size() < 2) return;
  const std::size_t repeats = runs.front().size();
  if (world_rank() == 0) std::printf("\nratios in this launch (GF/s%s):", repeats > 1 ? ", median [min..max] of the repetitions" : "");
  std::size_t limit = runs.size();  // the dgemm limit's index, if it ran
  for (std::size_t b = 0; b < runs.size(); ++b)
    if (medians[b].impl == Impl::dgemm) limit = b;
  for (std::size_t a = 0; a < runs.size(); ++a) {
    for (std::size_t b = 0; b < runs.size(); ++b) {
      const Impl ia = medians[a].impl, ib = medians[b].impl;
      if (a == b || is_limit(ia) || (!is_limit(ib) && ia != Impl::armada)) continue;
      std::vector<double> r;  // within each repetition
      for (std::size_t rep = 0; rep < repeats; ++rep)
        if (runs[b][rep].gflops > 0) r.push_back(runs[a][rep].gflops / runs[b][rep].gflops);
      add_ratio(std::string(to_string(ia)) + "/" + to_string(ib), to_string(ib), r, repeats, medians[a]);
    }
    if (is_limit(medians[a].impl) || limit == runs.size() || floor.seconds() <= 0) continue;
    std::vector<double> r;  // against each repetition's combined floor
    for (std::size_t rep = 0; rep < repeats; ++rep)
      if (const double f = floor.gflops(runs[limit][rep]); f > 0) r.push_back(runs[a][rep].gflops / f);
    add_ratio(std::string(to_string(medians[a].impl)) + "/floor", "floor", r, repeats, medians[a]);
  }
  if (world_rank() != 0) return;
  std::printf("\n");
  if (limit < runs.size() && floor.seconds() > 0)
    std::printf("combined floor: the dgemm limit + the task list's gets %s at copy %.2f GB/s and accumulates %s at "
                "triad %.2f GB/s (node bandwidth, all ranks at once, in this launch): +%.6f s; %.3f GF/s with the median "
                "limit\n",
                human_bytes(floor.bytes.gets).c_str(), floor.copy_bw / 1e9, human_bytes(floor.bytes.accumulates).c_str(),
                floor.triad_bw / 1e9, floor.seconds(), floor.gflops(medians[limit]));
}

std::string json_line(const Summary& s) {
  programs::json::JsonLine line;
  line.add("benchmark", "CCSD").add("ranks", s.ranks).add("schedule", s.schedule).add("time_s", s.time_s, 6);
  line.add("gflops", s.gflops, 6).add("imbalance", s.imbalance, 6);
  if (s.checksum) line.add("checksum", *s.checksum, "%.15e");
  else line.raw("checksum", "null");
  line.add("checked", s.checked()).add("impl", to_string(s.impl));
  // After the keys: the repetitions, and this implementation's ratios to the others.
  line.add("repeats", s.repeats).add("time_min_s", s.time_min_s, 6).add("time_max_s", s.time_max_s, 6);
  for (const auto& [key, value] : s.ratios) line.add(key, value, 4);
  return line.str();
}

}  // namespace armada::apps::ccsd
