// armada-ccsd: a CCSD-like tiled tensor contraction with dynamic load balancing (the pattern of
// NWChem's coupled-cluster codes) on armada::arrays; in the same launch, optionally, the same
// algorithm on Debian's Global Arrays and the local dgemm limit. See docs/apps.md.
//
// Exit codes: 0 done (and checked, with --check), 1 the check failed, 2 bad input.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "armada/apps/memory_floor.hpp"
#include "armada/programs/json.hpp"
#include "armada/rma/rma.hpp"
#include "armada_store.hpp"
#include "kernels.hpp"
#include "memory.hpp"
#include "report.hpp"
#include "world.hpp"
#ifdef ARMADA_CCSD_WITH_GA
#include "ga/ga_store.hpp"
#endif

namespace ccsd = armada::apps::ccsd;
namespace rma = armada::rma;

using ccsd::world_rank;

namespace {

#ifdef ARMADA_CCSD_WITH_GA
constexpr bool ga_available = true;
#else
constexpr bool ga_available = false;
#endif

/// Throws InputError when the ranks of some node would need more memory than it has available.
/// Collective: every rank reaches the same verdict.
void check_memory(const ccsd::Options& o) {
  const int ranks = ccsd::world_size();
  int node_ranks = 1;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  const ccsd::MemoryNeed need = ccsd::estimate_memory(o.settings, ranks, o.check);
  const double mine = node_ranks * need.per_rank + (o.check ? need.reference : 0.0);
  double worst_need = 0, least_available = 0, available = ccsd::available_memory();
  if (available <= 0) available = 1e300;  // cannot tell: do not refuse
  MPI_Allreduce(&mine, &worst_need, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&available, &least_available, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  if (worst_need <= least_available) return;
  const auto& s = o.settings;
  throw ccsd::InputError(
      "armada-ccsd: --occ " + std::to_string(s.occ) + " --virt " + std::to_string(s.virt) + " --tile " +
      std::to_string(s.tile) + " --irreps " + std::to_string(s.irreps) + " does not fit in memory: it needs " +
      ccsd::human_bytes(worst_need) + " on a node (" + std::to_string(node_ranks) + " ranks x " +
      ccsd::human_bytes(need.per_rank) + (o.check ? " + the reference " + ccsd::human_bytes(need.reference) : "") +
      "; tensors " + need.breakdown + "), but only " + ccsd::human_bytes(least_available) +
      " is available (MemAvailable); use more ranks on more nodes or a smaller problem");
}

/// Runs the contraction on one store; with --check, compares R with the reference on rank 0.
ccsd::Summary run_on(ccsd::Impl impl, ccsd::TileStore& store, const ccsd::Options& o, const ccsd::Tensors& tensors,
                     const ccsd::TermPlans& plans, const std::optional<ccsd::DenseTensor>& reference) {
  const ccsd::Schedule schedule = ccsd::schedule_of(impl, o.schedule);
  const ccsd::RunResult run = ccsd::run_contraction(tensors, plans, store, schedule);
  ccsd::Summary s = ccsd::summarize(impl, schedule, run);
  if (o.check) {  // the reference exists on rank 0 only
    ccsd::Comparison c;
    if (world_rank() == 0)
      c = ccsd::compare_residual(tensors[ccsd::TensorId::R], ccsd::read_residual(tensors, store), *reference, 1e-12);
    long long counts[2] = {c.compared, c.mismatches};
    MPI_Bcast(counts, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    MPI_Bcast(&c.max_relative, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    c.compared = counts[0];
    c.mismatches = counts[1];
    s.comparison = c;
  }
  store.sync();
  store.destroy_all();
  return s;
}

/// One run of one implementation.
ccsd::Summary run_impl(ccsd::Impl impl, const ccsd::Options& o, const ccsd::Tensors& tensors,
                       const ccsd::TermPlans& plans, const std::optional<ccsd::DenseTensor>& reference) {
  if (impl == ccsd::Impl::armada) {
    auto store = ccsd::make_armada_store();
    return run_on(impl, *store, o, tensors, plans, reference);
  }
  if (ccsd::is_limit(impl)) return ccsd::summarize(ccsd::run_dgemm_limit(plans, impl == ccsd::Impl::dgemm_streamed), impl);
#ifdef ARMADA_CCSD_WITH_GA
  auto store = ccsd::make_ga_store();
  return run_on(impl, *store, o, tensors, plans, reference);
#else
  throw std::logic_error("armada-ccsd: --impl ga without Global Arrays passed the option check");
#endif
}

// With the dgemm limit in the launch: the task list's bytes and the node's copy/triad bandwidth
// for this rank's share of them, measured now by all ranks at once (report.hpp: the combined floor).
ccsd::MovesFloor moves_floor(const ccsd::Options& o, const ccsd::TermPlans& plans) {
  ccsd::MovesFloor f;
  if (std::find(o.impls.begin(), o.impls.end(), ccsd::Impl::dgemm) == o.impls.end()) return f;
  const ccsd::TaskListBytes mine = ccsd::task_list_bytes(plans, ccsd::world_rank(), ccsd::world_size());
  const armada::apps::MemoryFloor bw = armada::apps::measure_memory_floor(mine.gets + mine.accumulates, MPI_COMM_WORLD);
  f.bytes = ccsd::task_list_bytes(plans, 0, 1);
  f.copy_bw = bw.copy_bw;
  f.triad_bw = bw.triad_bw;
  return f;
}

int run(const ccsd::Options& o) {
  const int ranks = ccsd::world_size();
  ccsd::use_one_blas_thread();
  const ccsd::Problem problem(o.settings);
  const ccsd::Tensors tensors(problem);
  const ccsd::TermPlans plans = ccsd::plan_all_terms(tensors);
  ccsd::print_problem(problem, tensors, plans, ranks, o.schedule);
  std::optional<ccsd::DenseTensor> reference;
  if (o.check && world_rank() == 0) reference = ccsd::reference_residual(problem);

  // Every repetition runs the whole --impl list, the order rotating from one repetition to the
  // next, so that a slow spell of a shared machine does not fall on one implementation.
  const std::size_t count = o.impls.size();
  std::vector<std::vector<ccsd::Summary>> runs(count);  // runs[i][r]: implementation i, repetition r
  for (int rep = 0; rep < o.repeats; ++rep)
    for (std::size_t n = 0; n < count; ++n) {
      const std::size_t i = (n + static_cast<std::size_t>(rep)) % count;
      runs[i].push_back(run_impl(o.impls[i], o, tensors, plans, reference));
      if (o.repeats == 1) ccsd::print_summary(runs[i].back());
      else ccsd::print_repetition(runs[i].back(), rep, o.repeats);
    }
  std::vector<ccsd::Summary> results;
  for (const auto& repetitions : runs) results.push_back(ccsd::median_of(repetitions));
  if (o.repeats > 1)
    for (const ccsd::Summary& s : results) ccsd::print_summary(s);
  ccsd::print_ratios(runs, results, moves_floor(o, plans));

  // The JSON lines, the main result last: armada's when it ran, else the first listed.
  std::size_t main_result = 0;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (results[i].impl == ccsd::Impl::armada) main_result = i;
  bool failed = false;
  if (world_rank() == 0) {
    armada::programs::json::JsonLinesFile json(o.json_file);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < results.size(); ++i)
      if (i != main_result) order.push_back(i);
    order.push_back(main_result);
    std::printf("\n");
    for (std::size_t i : order) {
      const ccsd::Summary& s = results[i];
      std::printf("%s\n", ccsd::json_line(s).c_str());
      json.write(ccsd::json_line(s));
      failed |= s.comparison && !s.checked();
    }
    if (!json.close()) {
      std::fprintf(stderr, "armada-ccsd: %s\n", json.error().c_str());
      failed = true;
    }
  }
  int status = failed ? 1 : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // The MPI settings the transports need (mpi-rma: Open MPI's one-sided components), before MPI_Init.
  rma::prepare_mpi_environment();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  ccsd::Options options;
  try {
    options = ccsd::parse_options(argc, argv, ga_available);
    if (!options.help) check_memory(options);
    // A --json file that cannot be written is bad input, found before any work.
    if (!options.help && !options.json_file.empty()) {
      int bad = 0;
      std::string why;
      if (world_rank() == 0) bad = !(why = armada::programs::json::check_writable(options.json_file)).empty();
      MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (bad) throw ccsd::InputError("armada-ccsd: " + why);
    }
  } catch (const ccsd::InputError& e) {
    if (world_rank() == 0) std::fprintf(stderr, "%s\n", e.what());
    MPI_Finalize();
    return 2;
  }
  if (options.help) {
    if (world_rank() == 0) std::printf("%s", ccsd::usage().c_str());
    MPI_Finalize();
    return 0;
  }
  rma::init_or_exit("armada-ccsd", MPI_COMM_WORLD);
  [[maybe_unused]] bool with_ga = false;
  for (ccsd::Impl i : options.impls) with_ga |= i == ccsd::Impl::ga || i == ccsd::Impl::ga_tce;
#ifdef ARMADA_CCSD_WITH_GA
  if (with_ga) ccsd::ga_start();
#endif
  const int status = run(options);
#ifdef ARMADA_CCSD_WITH_GA
  if (with_ga) ccsd::ga_stop();
#endif
  rma::finalize();
  MPI_Finalize();
  return status;
}
