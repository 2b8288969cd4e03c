// armada-cg: the NAS Parallel Benchmarks CG kernel on Armada's sparse matrices.
//
//   mpiexec -n <ranks> armada-cg --class S|W|A|B|C [--comm rma|mpi] [--json FILE] [--breakdown]
//
// Builds NPB's matrix for the class (rows in balanced blocks), runs one untimed inverse power
// step (warm-up, as NPB does), resets x, then times `niter` steps of 25 CG iterations each and
// verifies zeta against the official value (relative error <= 1e-10). Around the timed run
// (before and after, all ranks at once) it measures the memory floor of the timed section: the
// bytes CG must move (cg_rank_bytes) at the node's copy/triad bandwidth for one iteration's
// volume; the report and the JSON give it and time / floor. --breakdown times the phases of
// every CG iteration (products, dot products, their reductions, vector updates; the exchange
// as the products' time minus the same kernels alone) and prints them as a table; without it
// the timed run has no clock inside (conj_grad's NoClock). Prints NPB's iteration lines and
// report on rank 0; the last stdout line is the JSON result. Exit code: 0 verified,
// 1 verification failed, 2 bad input.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "armada/apps/allreduce.hpp"
#include "armada/apps/memory_floor.hpp"
#include "armada/apps/npb_cli.hpp"
#include "armada/apps/npb_report.hpp"
#include "armada/arrays/arrays.hpp"
#include "armada/arrays/sparse.hpp"
#include "armada/rma/rma.hpp"
#include "cg_comm.hpp"
#include "cg_program.hpp"
#include "npb_cg.hpp"

namespace apps = armada::apps;
namespace cg = armada::apps::cg;
namespace aa = armada::arrays;
namespace rma = armada::rma;

namespace {

double slowest(double seconds) { return apps::allreduce(seconds, MPI_MAX); }

// The timed inverse power method; fills in zeta and the time. With `breakdown`, conj_grad
// times its phases into it (and power_step's time goes to `other`).
void run(const cg::CgClass& c, cg::CgComm& comm, apps::NpbResult& result, bool print, cg::CgBreakdown* breakdown,
         double& other) {
  const cg::CgVectors v = comm.vectors();
  const cg::Multiply multiply = [&](cg::Vec in, cg::Vec out) { comm.multiply(in, out); };
  // One untimed step touches every page and builds every plan and transfer.
  cg::reset_start_vector(v);
  cg::conj_grad(v, multiply, MPI_COMM_WORLD);
  cg::power_step(v, c.shift, MPI_COMM_WORLD);
  cg::reset_start_vector(v);

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  double zeta = 0;
  for (int it = 1; it <= c.niter; ++it) {
    const double rnorm = breakdown ? cg::conj_grad(v, multiply, MPI_COMM_WORLD, *breakdown)
                                   : cg::conj_grad(v, multiply, MPI_COMM_WORLD);
    const double t_power = MPI_Wtime();
    zeta = cg::power_step(v, c.shift, MPI_COMM_WORLD);
    if (breakdown) other += MPI_Wtime() - t_power;
    if (print) {
      if (it == 1) std::printf("\n   iteration           ||r||                 zeta\n");
      std::printf("    %5d       %20.14e%20.13f\n", it, rnorm, zeta);
    }
  }
  result.time_s = slowest(MPI_Wtime() - t0);
  result.value = zeta;
}

// Seconds per product of the product's kernels alone (multiply_local and multiply_ghost on this
// rank's data, ghost values already in place: no exchange, no synchronization), all ranks at once.
double kernels_alone(const aa::SparseMatrix<double>& A, const cg::CgVectors& v, long products) {
  std::vector<double> ghosts(A.ghost_columns().size(), 1.0);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long k = 0; k < products; ++k) {
    A.multiply_local(v[cg::Vec::p], v[cg::Vec::q], 1.0, 0.0);
    A.multiply_ghost(ghosts.data(), v[cg::Vec::q], 1.0);
  }
  return (MPI_Wtime() - t0) / static_cast<double>(products);
}

// The breakdown per CG iteration (mean and max over the ranks), printed on rank 0 and added to
// the JSON (seconds per iteration, the ranks' mean).
void report_breakdown(const cg::CgBreakdown& b, double other, double kernels, apps::NpbResult& result, bool root) {
  const double per_iteration = 1.0 / static_cast<double>(b.iterations);
  const double spmv = b.spmv / static_cast<double>(b.products);  // per product
  // Per iteration: one product (the residual's, one in 26, is spread over the 25 iterations).
  const double products_per_iteration = static_cast<double>(b.products) * per_iteration;
  const char* names[] = {"spmv (kernels + exchange)", "  kernels alone", "  exchange and sync (difference)",
                         "dot products (local)", "reductions (MPI_Allreduce)", "vector updates", "power step and rest"};
  const char* keys[] = {"spmv", "spmv_kernels", "exchange", "dot", "reduce", "update", "other"};
  double mine[7] = {b.spmv * per_iteration, kernels * products_per_iteration,
                    (spmv - kernels) * products_per_iteration, b.dot * per_iteration, b.reduce * per_iteration,
                    b.update * per_iteration, other * per_iteration};
  double mean[7], max[7];
  MPI_Allreduce(mine, mean, 7, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(mine, max, 7, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double total = mean[0] + mean[3] + mean[4] + mean[5] + mean[6];
  for (int k = 0; k < 7; ++k) {
    mean[k] /= rma::size();
    result.extra.emplace_back(std::string("breakdown_") + keys[k] + "_s", mean[k]);
  }
  if (!root) return;
  std::printf("\n Breakdown per CG iteration (%ld iterations, %ld products; us, mean and max over the ranks):\n",
              b.iterations, b.products);
  std::printf("   %-34s %12s %12s %8s\n", "phase", "mean", "max", "share");
  for (int k = 0; k < 7; ++k)
    std::printf("   %-34s %12.2f %12.2f %7.1f%%\n", names[k], mean[k] * 1e6, max[k] * 1e6,
                total > 0 ? 100 * mean[k] * rma::size() / total : 0.0);
}

// The memory floor of the timed section (see the header comment), into the report and the JSON.
void report_floor(const apps::MemoryFloor& f, double section_bytes, apps::NpbResult& result, bool root) {
  const double floor_s = f.seconds_for(section_bytes);
  result.extra.emplace_back("floor_s", floor_s);
  result.extra.emplace_back("floor_bytes", section_bytes);
  result.extra.emplace_back("copy_gbs", f.copy_bw / 1e9);
  result.extra.emplace_back("triad_gbs", f.triad_bw / 1e9);
  result.extra.emplace_back("time_over_floor", floor_s > 0 ? result.time_s / floor_s : 0.0);
  if (!root) return;
  std::printf("\n Memory floor: %.3f MB per CG iteration, %.1f MB in the timed section (all ranks);\n"
              "   node bandwidth for that volume, all ranks at once: copy %.2f GB/s, triad %.2f GB/s;\n"
              "   floor %s s, time / floor %.3f\n",
              f.bytes / 1e6, section_bytes / 1e6, f.copy_bw / 1e9, f.triad_bw / 1e9, apps::npb_seconds(floor_s).c_str(),
              floor_s > 0 ? result.time_s / floor_s : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  const apps::NpbProgram program{"armada-cg", "CG", cg::cg_class_letters(),
                                 "NAS Parallel Benchmarks CG (conjugate gradient on a random sparse matrix)"};
  static bool breakdown_wanted = false;
  std::vector<armada::programs::Option> extra{
      {.name = "--breakdown", .help = "time each phase of every CG iteration (a separate, slower-to-read run: not the benchmark's figure)",
       .flag_target = &breakdown_wanted}};
  return cg::run_cg_program(argc, argv, program, [](const apps::NpbArgs& args) {
    const bool root = rma::rank() == 0;
    const cg::CgClass& c = *cg::find_cg_class(args.problem_class);
    const double t_init = MPI_Wtime();
    auto A = cg::build_cg_matrix(c);
    const long nonzeros = A.nonzeros();
    const cg::CgBytes bytes = cg::cg_rank_bytes(A);
    auto comm = args.comm == apps::Comm::rma ? cg::make_rma_comm(A) : cg::make_mpi_comm(A, MPI_COMM_WORLD);
    const double init_s = slowest(MPI_Wtime() - t_init);
    if (root) {
      char shift[32];
      std::snprintf(shift, sizeof shift, "%.3e", c.shift);
      apps::print_npb_banner(stdout, {"CG", c.name, {c.na, 0, 0}, c.niter, rma::size(), args.comm,
                                      {{"Number of nonzeroes per row", std::to_string(c.nonzer)},
                                       {"Eigenvalue shift", shift},
                                       {"Matrix nonzeros", std::to_string(nonzeros)}}});
      std::printf(" Initialization time = %15.3f seconds\n", init_s);
    }

    apps::NpbResult result;
    result.benchmark = "CG";
    result.problem_class = c.name;
    result.size = {c.na, 0, 0};
    result.iterations = c.niter;
    result.ranks = rma::size();
    result.comm = args.comm;
    result.value_name = "Zeta";
    result.reference = c.zeta;
    result.tolerance = cg::cg_tolerance;
    const apps::MemoryFloor before = apps::measure_memory_floor(bytes.iteration, MPI_COMM_WORLD);
    cg::CgBreakdown breakdown;
    double other = 0;
    run(c, *comm, result, root, breakdown_wanted ? &breakdown : nullptr, other);
    const apps::MemoryFloor floor = before.best(apps::measure_memory_floor(bytes.iteration, MPI_COMM_WORLD));
    double section_bytes = bytes.step * c.niter;
    MPI_Allreduce(MPI_IN_PLACE, &section_bytes, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    report_floor(floor, section_bytes, result, root);
    if (breakdown_wanted)
      report_breakdown(breakdown, other, kernels_alone(A, comm->vectors(), std::min(breakdown.products, 200L)), result, root);
    comm.reset();
    result.mops = cg::cg_mops(c, result.time_s);
    result.verified = apps::npb_verify(result.value, result.reference, result.tolerance);
    if (!root) return cg::exit_verified;  // rank 0 decides
    apps::print_npb_report(stdout, result);
    std::string why;
    if (!apps::write_npb_json(result, args.json_path, why)) {
      std::fprintf(stderr, "armada-cg: %s\n", why.c_str());
      return cg::exit_bad_input;
    }
    return result.verified ? cg::exit_verified : cg::exit_failed;
  }, std::move(extra));
}
