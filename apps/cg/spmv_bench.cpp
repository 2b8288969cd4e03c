// armada-spmv-bench: time per sparse matrix-vector product on NPB CG's matrix, one-sided
// (arrays::spmv: one aggregated I/O-vector get per owner) and MPI two-sided (the baseline) in
// the same launch, alternated: `rounds` rounds, each timing a run of products of both variants
// (which goes first alternates), so that the VM's drift hits both alike; reported as the median
// [min..max] over the rounds, and the median of each round's own ratio rma/mpi. Also the bytes
// each product fetches. Both products must give the same vector (same kernels, same ghost
// values: compared exactly), or the program exits 1.
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
#include "armada/programs/stats.hpp"
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

// Timed runs of each variant, alternated (odd: enough for a median).
constexpr int rounds = 9;

// Times `n` products p -> q; returns seconds per product (slowest rank).
double time_products(cg::CgComm& comm, int n) {
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
  std::vector<double> rma_s, mpi_s;  // seconds per product (slowest rank), one per round
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
  one_sided->multiply(cg::Vec::p, cg::Vec::q);  // warm-up: plans, transfers, pages
  two_sided->multiply(cg::Vec::p, cg::Vec::q);
  for (int r = 0; r < rounds; ++r) {
    const bool rma_first = r % 2 == 0;
    cg::CgComm& first = rma_first ? *one_sided : *two_sided;
    cg::CgComm& second = rma_first ? *two_sided : *one_sided;
    const double t_first = time_products(first, m.products), t_second = time_products(second, m.products);
    m.rma_s.push_back(rma_first ? t_first : t_second);
    m.mpi_s.push_back(rma_first ? t_second : t_first);
  }
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
  std::printf(" armada-spmv-bench: NPB CG class %c matrix, %ld rows, %ld nonzeros, %d ranks, %d rounds of %d products"
              " per variant, alternated\n", c.name, c.na, m.nonzeros, rma::size(), rounds, m.products);
  std::printf(" fetched per product (all ranks): %ld entries, %ld bytes in %ld runs, %ld vector gets\n", m.entries, m.bytes,
              m.runs, m.gets);
  std::vector<double> paired;
  for (int r = 0; r < rounds; ++r) paired.push_back(m.rma_s[static_cast<std::size_t>(r)] / m.mpi_s[static_cast<std::size_t>(r)]);
  const armada::programs::Stats rma_t = armada::programs::summarize(m.rma_s), mpi_t = armada::programs::summarize(m.mpi_s),
                                ratio = armada::programs::summarize(paired);
  std::printf(" us per product, median [min..max] over the rounds:\n");
  std::printf(" rma (one put-with-notify a peer): %12.3f [%.3f..%.3f]\n", rma_t.median * 1e6, rma_t.min * 1e6, rma_t.max * 1e6);
  std::printf(" mpi (two-sided messages):        %12.3f [%.3f..%.3f]\n", mpi_t.median * 1e6, mpi_t.min * 1e6, mpi_t.max * 1e6);
  std::printf(" rma / mpi, each round's own:     %12.3f [%.3f..%.3f]\n", ratio.median, ratio.min, ratio.max);
  std::printf(" results: %s\n", m.identical ? "identical" : "DIFFER (FAILED)");
  armada::programs::json::JsonLine line;
  line.add("benchmark", "SpMV").add("class", std::string(1, c.name)).add("ranks", rma::size());
  line.add("comm", apps::to_string(args.comm)).add("time_s", args.comm == apps::Comm::rma ? rma_t.median : mpi_t.median, 9);
  line.add("rma_s", rma_t.median, 9).add("mpi_s", mpi_t.median, 9).add("rma_over_mpi", ratio.median, 4);
  line.add("rounds", rounds).add("products", m.products).add("nonzeros", m.nonzeros);
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
