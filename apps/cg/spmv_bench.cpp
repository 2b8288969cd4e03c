// armada-spmv-bench: time per sparse matrix-vector product on NPB CG's matrix, one-sided
// (arrays::spmv: one aggregated I/O-vector get per owner) and MPI two-sided (the baseline) in
// the same launch, with the bytes each product fetches. Both products must give the same
// vector (same kernels, same ghost values: compared exactly), or the program exits 1.
//
//   mpiexec -n <ranks> armada-spmv-bench --class S|W|A|B|C [--comm rma|mpi] [--json FILE]
//
// --comm picks which variant's time is the JSON line's "time_s" (both are measured and
// printed). The last stdout line is the JSON result.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "armada/apps/npb_cli.hpp"
#include "armada/arrays/sparse.hpp"
#include "armada/programs/json.hpp"
#include "armada/rma/rma.hpp"
#include "cg_comm.hpp"
#include "cg_program.hpp"
#include "npb_cg.hpp"

namespace apps = armada::apps;
namespace cg = armada::apps::cg;
namespace aa = armada::arrays;
namespace rma = armada::rma;

namespace {

// Products per timed run, per class (the larger classes take longer per product).
int products_for(char c) {
  switch (c) {
    case 'S': return 400;
    case 'W': return 200;
    case 'A': return 100;
    default: return 20;
  }
}

// Times `n` products p -> q; returns seconds per product (slowest rank).
double time_products(cg::CgComm& comm, int n) {
  comm.multiply(cg::Vec::p, cg::Vec::q);  // warm-up: plans, transfers, pages
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < n; ++i) comm.multiply(cg::Vec::p, cg::Vec::q);
  double t = (MPI_Wtime() - t0) / n, slowest = 0;
  MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

void fill_p(cg::CgComm& comm, long first_row) {
  const cg::CgVectors v = comm.vectors();
  for (std::size_t i = 0; i < v.n; ++i) v[cg::Vec::p][i] = 1.0 / static_cast<double>(first_row + static_cast<long>(i) + 1);
}

// The measurement and its checks, the same on every rank.
struct Measured {
  long nonzeros = 0;
  int products = 0;
  double rma_s = 0, mpi_s = 0;  // seconds per product, slowest rank
  long bytes = 0, runs = 0, gets = 0, entries = 0;  // moved by one product, all ranks
  bool identical = false;
};

Measured measure(const cg::CgClass& c) {
  Measured m;
  auto A = cg::build_cg_matrix(c);
  m.nonzeros = A.nonzeros();
  m.products = products_for(c.name);
  auto one_sided = cg::make_rma_comm(A);
  auto two_sided = cg::make_mpi_comm(A, MPI_COMM_WORLD);
  fill_p(*one_sided, A.local_rows().first);
  fill_p(*two_sided, A.local_rows().first);
  m.rma_s = time_products(*one_sided, m.products);
  m.mpi_s = time_products(*two_sided, m.products);
  // Same vector from both (exactly), and what one product moves, summed over the ranks.
  int differ = 0;
  const cg::CgVectors a = one_sided->vectors(), b = two_sided->vectors();
  for (std::size_t i = 0; i < a.n; ++i) differ |= a[cg::Vec::q][i] != b[cg::Vec::q][i];
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  m.identical = differ == 0;
  const aa::SpmvTraffic t = A.traffic();
  long moved[4] = {static_cast<long>(t.bytes), static_cast<long>(t.runs), t.sources, static_cast<long>(t.ghost_entries)};
  MPI_Allreduce(MPI_IN_PLACE, moved, 4, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  m.bytes = moved[0];
  m.runs = moved[1];
  m.gets = moved[2];
  m.entries = moved[3];
  return m;
}

// The report and the JSON line (rank 0); returns the exit code.
int report(const cg::CgClass& c, const apps::NpbArgs& args, const Measured& m) {
  std::printf(" armada-spmv-bench: NPB CG class %c matrix, %ld rows, %ld nonzeros, %d ranks, %d products each\n", c.name,
              c.na, m.nonzeros, rma::size(), m.products);
  std::printf(" fetched per product (all ranks): %ld entries, %ld bytes in %ld runs, %ld vector gets\n", m.entries, m.bytes,
              m.runs, m.gets);
  std::printf(" rma (aggregated one-sided gets): %12.3f us per product\n", m.rma_s * 1e6);
  std::printf(" mpi (two-sided messages):        %12.3f us per product\n", m.mpi_s * 1e6);
  std::printf(" results: %s\n", m.identical ? "identical" : "DIFFER (FAILED)");
  armada::programs::json::JsonLine line;
  line.add("benchmark", "SpMV").add("class", std::string(1, c.name)).add("ranks", rma::size());
  line.add("comm", apps::to_string(args.comm)).add("time_s", args.comm == apps::Comm::rma ? m.rma_s : m.mpi_s, 9);
  line.add("rma_s", m.rma_s, 9).add("mpi_s", m.mpi_s, 9).add("products", m.products).add("nonzeros", m.nonzeros);
  line.add("bytes_per_product", m.bytes).add("runs", m.runs).add("gets", m.gets).add("verified", m.identical);
  std::printf("%s\n", line.str().c_str());
  std::fflush(stdout);
  if (!args.json_path.empty()) {
    if (const std::string why = armada::programs::json::write_lines(args.json_path, {line.str()}); !why.empty()) {
      std::fprintf(stderr, "armada-spmv-bench: %s\n", why.c_str());
      return cg::exit_bad_input;
    }
  }
  return m.identical ? cg::exit_verified : cg::exit_failed;
}

}  // namespace

int main(int argc, char** argv) {
  const apps::NpbProgram program{"armada-spmv-bench", "SpMV", cg::cg_class_letters(),
                                 "sparse matrix-vector products on NPB CG's matrix: one-sided and MPI two-sided"};
  return cg::run_cg_program(argc, argv, program, [](const apps::NpbArgs& args) {
    const cg::CgClass& c = *cg::find_cg_class(args.problem_class);
    const Measured m = measure(c);
    return rma::rank() == 0 ? report(c, args, m) : cg::exit_verified;  // rank 0 decides
  });
}
