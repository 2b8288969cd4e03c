// armada-cg: the NAS Parallel Benchmarks CG kernel on Armada's sparse matrices.
//
//   mpiexec -n <ranks> armada-cg --class S|W|A|B|C [--comm rma|mpi] [--json FILE]
//
// Builds NPB's matrix for the class (rows in balanced blocks), runs one untimed inverse power
// step (warm-up, as NPB does), resets x, then times `niter` steps of 25 CG iterations each and
// verifies zeta against the official value (relative error <= 1e-10). Prints NPB's iteration
// lines and report on rank 0; the last stdout line is the JSON result. Exit code: 0 verified,
// 1 verification failed, 2 bad input.
#include <mpi.h>

#include <cstdio>
#include <string>

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

double slowest(double seconds) {
  double t = 0;
  MPI_Allreduce(&seconds, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

// The timed inverse power method; fills in zeta and the time.
void run(const cg::CgClass& c, cg::CgComm& comm, apps::NpbResult& result, bool print) {
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
    const double rnorm = cg::conj_grad(v, multiply, MPI_COMM_WORLD);
    zeta = cg::power_step(v, c.shift, MPI_COMM_WORLD);
    if (print) {
      if (it == 1) std::printf("\n   iteration           ||r||                 zeta\n");
      std::printf("    %5d       %20.14e%20.13f\n", it, rnorm, zeta);
    }
  }
  result.time_s = slowest(MPI_Wtime() - t0);
  result.value = zeta;
}

}  // namespace

int main(int argc, char** argv) {
  const apps::NpbProgram program{"armada-cg", "CG", cg::cg_class_letters(),
                                 "NAS Parallel Benchmarks CG (conjugate gradient on a random sparse matrix)"};
  return cg::run_cg_program(argc, argv, program, [](const apps::NpbArgs& args) {
    const bool root = rma::rank() == 0;
    const cg::CgClass& c = *cg::find_cg_class(args.problem_class);
    const double t_init = MPI_Wtime();
    auto A = cg::build_cg_matrix(c);
    const long nonzeros = A.nonzeros();
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
    run(c, *comm, result, root);
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
  });
}
