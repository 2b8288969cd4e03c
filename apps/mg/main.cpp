// armada-mg: the NAS Parallel Benchmarks MG kernel (NPB 3.4 specification) on Armada arrays.
//
//   mpiexec -n <ranks> armada-mg --class S|W|A|B|C [--comm rma|mpi] [--json FILE]
//
// Rank 0 prints NPB's report and, last, one JSON line (apps/common/npb_report.hpp).
// Exit code: 0 verified; 1 verification failed or the run failed; 2 bad input (options, class,
// a rank count the grid cannot use, an unwritable --json file), reported before any data moves.
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "armada/apps/npb_cli.hpp"
#include "armada/apps/npb_report.hpp"
#include "armada/rma/rma.hpp"
#include "classes.hpp"
#include "mg.hpp"

namespace ap = armada::apps;
namespace mg = armada::mg;
namespace rma = armada::rma;

namespace {

const ap::NpbProgram program{"armada-mg", "MG", mg::class_letters,
                             "NAS Parallel Benchmarks MG (V-cycle multigrid, periodic 3-D Poisson) on Armada arrays"};

// NPB's timed section: residual, `iterations` V-cycles each followed by the residual, norm.
mg::Norms run_benchmark(mg::Multigrid& solver, int iterations, bool print) {
  const int lt = solver.levels();
  solver.resid(lt);
  solver.norm2u3(lt);
  for (int it = 1; it <= iterations; ++it) {
    if (print && (it == 1 || it == iterations || it % 5 == 0)) std::printf("  iter %4d\n", it);
    solver.mg3p();
    solver.resid(lt);
  }
  return solver.norm2u3(lt);
}

// Rank 0 prints the report and the JSON line. Returns the exit code (meaningful on rank 0).
int report(const ap::NpbArgs& args, const mg::ProblemClass& cls, double time, const mg::Norms& norms, bool root) {
  ap::NpbResult result;
  result.benchmark = "MG";
  result.problem_class = cls.name;
  result.size = {cls.n, cls.n, cls.n};
  result.iterations = cls.iterations;
  result.ranks = rma::size();
  result.comm = args.comm;
  result.time_s = time;
  const double points = static_cast<double>(cls.n) * cls.n * cls.n;
  result.mops = time > 0 ? mg::flops_per_point * cls.iterations * points * 1e-6 / time : 0.0;
  result.value_name = "L2 Norm";
  result.value = norms.l2;
  result.reference = cls.reference;
  result.verified = ap::npb_verify(norms.l2, cls.reference, result.tolerance);
  int code = result.verified ? 0 : 1;
  if (root) {
    ap::print_npb_report(stdout, result);
    std::string why;
    if (!ap::write_npb_json(result, args.json_path, why)) {
      std::fprintf(stderr, "armada-mg: %s\n", why.c_str());
      code = 1;
    }
  }
  return code;
}

// Everything after the checks: set up, one untimed warm-up V-cycle (NPB does the same), the
// timed run, the report. Returns the exit code.
int run(const ap::NpbArgs& args, const mg::ProblemClass& cls, const mg::ProcessGrid& grid, MPI_Comm comm) {
  const int ranks = rma::size();
  const bool root = rma::rank() == 0;
  std::unique_ptr<mg::Exchange> exchange =
      args.comm == ap::Comm::mpi ? mg::make_mpi_exchange(comm) : mg::make_rma_exchange();
  if (root) {
    std::printf("\n\n NAS Parallel Benchmarks 3.4 -- MG Benchmark (Armada arrays)\n\n");
    std::printf(" Size: %4dx%4dx%4d  (class %c)\n", cls.n, cls.n, cls.n, cls.name);
    std::printf(" Iterations: %4d\n", cls.iterations);
    std::printf(" Total number of processes: %6d (process grid %dx%dx%d, z y x)\n", ranks, grid.p[0], grid.p[1],
                grid.p[2]);
    std::printf(" Communication: %s\n\n", exchange->name());
    std::fflush(stdout);
  }
  mg::Multigrid solver(cls.n, grid, cls.smoother, *exchange, comm);
  solver.initialize();
  solver.resid(solver.levels());
  solver.mg3p();
  solver.resid(solver.levels());
  solver.initialize();

  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  const mg::Norms norms = run_benchmark(solver, cls.iterations, root);
  const double local_time = MPI_Wtime() - start;
  double time = 0;
  MPI_Reduce(&local_time, &time, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  solver.destroy();

  int code = report(args, cls, time, norms, root);
  MPI_Bcast(&code, 1, MPI_INT, 0, comm);
  return code;
}

// The checks that need the rank count and the file system: bad input, exit code 2.
bool check_input(const ap::NpbArgs& args, const mg::ProblemClass& cls, mg::ProcessGrid& grid, bool root) {
  std::string error;
  try {
    grid = mg::choose_process_grid(rma::size(), cls.n);
  } catch (const mg::LayoutError& e) {
    error = std::string("class ") + cls.name + ": " + e.what();
  }
  if (error.empty() && root && !args.json_path.empty()) ap::npb_json_path_writable(args.json_path, error);
  int bad = error.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, rma::world_comm());
  if (bad && root) std::fprintf(stderr, "armada-mg: %s\n", error.empty() ? "bad input on another rank" : error.c_str());
  return !bad;
}

}  // namespace

int main(int argc, char** argv) {
  rma::Session session("armada-mg", &argc, &argv);
  const bool root = rma::rank() == 0;
  try {
    const ap::NpbParse parsed = ap::parse_npb_command_line(argc, argv, program, root);
    if (!parsed.args) return parsed.exit_code;
    const mg::ProblemClass cls = *mg::find_class(parsed.args->problem_class);
    mg::ProcessGrid grid;
    if (!check_input(*parsed.args, cls, grid, root)) return 2;
    return run(*parsed.args, cls, grid, rma::world_comm());
  } catch (const std::exception& e) {
    // A failure on some ranks only would leave the others waiting in a collective.
    std::fprintf(stderr, "[rank %d] armada-mg: %s\n", rma::rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 1;
}
