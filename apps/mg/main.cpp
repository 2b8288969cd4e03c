// armada-mg: the NAS Parallel Benchmarks MG kernel (NPB 3.4 specification) on Armada arrays.
//
//   mpiexec -n <ranks> armada-mg --class S|W|A|B|C [--comm rma|mpi] [--json FILE]
//                               [--checkpoint N] [--checkpoint-prefix P] [--restart]
//
// Rank 0 prints NPB's report and, last, one JSON line (apps/common/npb_report.hpp) with the
// memory floor of the timed section measured in the same launch (apps/common/memory_floor.hpp;
// the bytes: Multigrid::rank_bytes_per_iteration) and time / floor.
// --checkpoint N writes the solution u every N iterations as an HDF5 checkpoint "<P>.<it>.h5"
// (arrays::checkpoint; P defaults to armada-mg.<class>; the two newest are kept); --restart
// resumes from the newest complete checkpoint of P, on any rank count (docs/io.md), and runs the
// remaining iterations: the verified norm is the same as without the interruption.
// Exit code: 0 verified; 1 verification failed or the run failed; 2 bad input (options, class,
// a rank count the grid cannot use, an unwritable --json file), reported before any data moves.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "armada/apps/memory_floor.hpp"
#include "armada/apps/npb_cli.hpp"
#include "armada/arrays/io.hpp"
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

// The checkpoint options: armada-mg's own rows of the NPB command line.
struct CheckpointArgs {
  int every = 0;        ///< --checkpoint N: every N iterations (0: never)
  bool restart = false; ///< --restart
  std::string prefix;   ///< --checkpoint-prefix (default armada-mg.<class>)
  std::string row_isa = "auto";  ///< --row-isa (not a checkpoint option: armada-mg's other row)
};

std::vector<armada::programs::Option> checkpoint_options(CheckpointArgs& ck) {
  using armada::programs::Kind;
  std::vector<std::string> isas{"auto"};
  for (mg::RowIsa isa : mg::supported_row_isas()) isas.emplace_back(mg::name(isa));
  return {{.name = "--row-isa", .kind = Kind::choice,
           .help = "the build of the stencils' row loops: auto times each on this machine before the\n"
                   "warm-up and keeps the fastest (the others: what this CPU runs)",
           .default_text = "auto", .choices = isas, .text_target = &ck.row_isa},
          {.name = "--checkpoint", .kind = Kind::integer,
           .help = "write the solution every N iterations as an HDF5 checkpoint P.<it>.h5 (the two newest kept)",
           .min = 1, .max = 1000000, .int_target = &ck.every},
          {.name = "--checkpoint-prefix", .kind = Kind::text, .value_name = "P", .help = "the checkpoints' file prefix",
           .default_text = "armada-mg.<class>", .nonempty = true, .text_target = &ck.prefix},
          {.name = "--restart", .help = "resume from the newest complete checkpoint of P (any rank count)",
           .flag_target = &ck.restart}};
}

// Loads u from the newest checkpoint when asked; returns the iteration it was written after (0:
// start from the beginning).
int resume(mg::Multigrid& solver, const CheckpointArgs& ck, bool root) {
  if (!ck.restart) return 0;
  mg::LevelArray& u = solver.u(solver.levels());
  solver.prepare_write(u);
  std::vector<armada::arrays::Array> state{u.array};
  const auto step = armada::arrays::restart(ck.prefix, state);
  if (!step) {
    if (root) std::printf(" No checkpoint '%s.<iteration>.h5': starting from the beginning\n\n", ck.prefix.c_str());
    return 0;
  }
  solver.exchange_ghosts(solver.levels(), u);
  if (root) std::printf(" Restarted from checkpoint '%s.%ld.h5' (after iteration %ld)\n\n", ck.prefix.c_str(), *step, *step);
  return static_cast<int>(*step);
}

// NPB's timed section: residual, `iterations` V-cycles each followed by the residual, norm.
// From a checkpoint, the V-cycles after iteration `first`; checkpoints every ck.every iterations.
mg::Norms run_benchmark(mg::Multigrid& solver, int iterations, int first, const CheckpointArgs& ck, bool print) {
  const int lt = solver.levels();
  solver.resid(lt);
  solver.norm2u3(lt);
  solver.iterations(
      iterations - first,
      [&](int i) {
        const int it = first + i;
        if (print && (it == 1 || it == iterations || it % 5 == 0)) std::printf("  iter %4d\n", it);
      },
      [&](int i) {
        const int it = first + i;
        if (ck.every > 0 && it % ck.every == 0) armada::arrays::checkpoint(ck.prefix, it, {solver.u(lt).array});
      });
  return solver.norm2u3(lt);
}

// The memory floor of the timed section (the bytes of Multigrid::rank_bytes_*, all ranks, at the
// node's copy/triad bandwidth for one iteration's volume): the JSON's members; rank 0 prints it.
std::vector<std::pair<std::string, double>> floor_members(const ap::MemoryFloor& f, double section_bytes, double time,
                                                          bool root) {
  const double floor_s = f.seconds_for(section_bytes);
  if (root)
    std::printf("\n Memory floor: %.3f MB per iteration, %.1f MB in the timed section (all ranks);\n"
                "   node bandwidth for that volume, all ranks at once: copy %.2f GB/s, triad %.2f GB/s;\n"
                "   floor %s s, time / floor %.3f\n",
                f.bytes / 1e6, section_bytes / 1e6, f.copy_bw / 1e9, f.triad_bw / 1e9, ap::npb_seconds(floor_s).c_str(),
                floor_s > 0 ? time / floor_s : 0.0);
  return {{"floor_s", floor_s}, {"floor_bytes", section_bytes}, {"copy_gbs", f.copy_bw / 1e9},
          {"triad_gbs", f.triad_bw / 1e9}, {"time_over_floor", floor_s > 0 ? time / floor_s : 0.0}};
}

// Rank 0 prints the report and the JSON line. Returns the exit code (meaningful on rank 0).
int report(const ap::NpbArgs& args, const mg::ProblemClass& cls, double time, const mg::Norms& norms, bool root,
           std::vector<std::pair<std::string, double>> extra) {
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
  result.extra = std::move(extra);
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
int run(const ap::NpbArgs& args, const CheckpointArgs& ck, const mg::ProblemClass& cls, const mg::ProcessGrid& grid,
        MPI_Comm comm) {
  const int ranks = rma::size();
  const bool root = rma::rank() == 0;
  std::unique_ptr<mg::Exchange> exchange =
      args.comm == ap::Comm::mpi ? mg::make_mpi_exchange(comm) : mg::make_rma_exchange();
  if (root) {
    const std::string process_grid =
        std::to_string(grid.p[0]) + "x" + std::to_string(grid.p[1]) + "x" + std::to_string(grid.p[2]);
    ap::print_npb_banner(stdout, {"MG", cls.name, {cls.n, cls.n, cls.n}, cls.iterations, ranks, args.comm,
                                  {{"Process grid (z y x)", process_grid}}});
  }
  mg::Multigrid solver(cls.n, grid, cls.smoother, *exchange, comm);
  solver.initialize();
  const std::string row_loops = solver.choose_row_isa(mg::row_isa_named(ck.row_isa));
  if (root) std::printf(" Row loops: %s\n\n", row_loops.c_str());
  solver.resid(solver.levels());
  solver.iterations(1);
  solver.initialize();
  const int first = resume(solver, ck, root);
  // The floor, measured before and after the timed run by all ranks at once (the better kept).
  const double iteration_bytes = solver.rank_bytes_per_iteration();
  const ap::MemoryFloor before = ap::measure_memory_floor(iteration_bytes, comm);

  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  const mg::Norms norms = run_benchmark(solver, cls.iterations, first, ck, root);
  const double local_time = MPI_Wtime() - start;
  double time = 0;
  MPI_Reduce(&local_time, &time, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  const ap::MemoryFloor floor = before.best(ap::measure_memory_floor(iteration_bytes, comm));
  double section_bytes = (cls.iterations - first) * iteration_bytes + solver.rank_bytes_fixed();
  MPI_Allreduce(MPI_IN_PLACE, &section_bytes, 1, MPI_DOUBLE, MPI_SUM, comm);
  solver.destroy();

  int code = report(args, cls, time, norms, root, floor_members(floor, section_bytes, time, root));
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
    CheckpointArgs ck;
    const ap::NpbParse parsed = ap::parse_npb_command_line(argc, argv, program, root, checkpoint_options(ck));
    if (!parsed.args) return parsed.exit_code;
    const mg::ProblemClass cls = *mg::find_class(parsed.args->problem_class);
    if (ck.prefix.empty()) ck.prefix = std::string("armada-mg.") + cls.name;
    if ((ck.every > 0 || ck.restart) && !armada::arrays::io_available()) {
      if (root) std::fprintf(stderr, "armada-mg: --checkpoint and --restart need Armada built with parallel HDF5\n");
      return 2;
    }
    mg::ProcessGrid grid;
    if (!check_input(*parsed.args, cls, grid, root)) return 2;
    return run(*parsed.args, ck, cls, grid, rma::world_comm());
  } catch (const std::exception& e) {
    // A failure on some ranks only would leave the others waiting in a collective.
    std::fprintf(stderr, "[rank %d] armada-mg: %s\n", rma::rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 1;
}
