// armada-bench-arrays: patch get/put/acc of a 2-D double array and read_inc of a remote counter,
// through armada::arrays and, in the same launch, through Debian's Global Arrays (GA 5.8 on
// ARMCI-MPI) when the benchmark was built with it; prints armada / GA ratios.
//
// Rank 0 is the origin; the other ranks own blocks and wait in a barrier. The patch is a
// centered square of a 2048 x 2048 array, so it spans every owner (2 ranks: both halves; 4
// ranks: all four quadrants). Every repetition times a loop of operations for armada, then the
// same for GA (interleaved, so both see the same machine state); figures are medians over --reps
// repetitions of the time per operation. Data moved by every operation kind is verified; a
// mismatch makes the exit status 1.
//
//   mpiexec -n 2 armada-bench-arrays [--quick] [--reps N] [--output results.json]
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/rma.hpp"
#include "common/options.hpp"
#include "common/results.hpp"
#include "common/stats.hpp"
#include "common/timing.hpp"

#ifdef ARMADA_BENCH_WITH_GA
#include <ga.h>
#include <macdecls.h>
#endif

namespace arrays = armada::arrays;
namespace rma = armada::rma;
namespace bench = armada::bench;
using arrays::Coord;

namespace {

constexpr long kN = 2048;

int g_rank = 0, g_size = 1;
int g_failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++g_failures;
    std::fprintf(stderr, "[rank %d] verification failed: %s\n", g_rank, what.c_str());
  }
}

/// Runs `op` `iters` times on rank 0 between barriers; returns seconds per operation (on every
/// rank, broadcast from rank 0).
template <class Op>
double timed(Op&& op, std::size_t iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  double per = 0;
  if (g_rank == 0) {
    const auto t0 = bench::Clock::now();
    for (std::size_t i = 0; i < iters; ++i) op(i);
    per = bench::seconds(t0, bench::Clock::now()) / static_cast<double>(iters);
  }
  MPI_Bcast(&per, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  return per;
}

struct Pair {
  std::vector<double> armada, ga;
};

void report(bench::ResultWriter& out, const std::string& name, const std::string& label, std::size_t bytes,
            const Pair& p, bool have_ga, double scale_to_us) {
  bench::Result r;
  r.bench = name;
  r.label = label;
  r.bytes = bytes;
  r.variant = "hot";
  r.unit = bench::Unit::Micros;
  std::vector<double> a = p.armada, g = p.ga;
  for (double& x : a) x *= scale_to_us;
  for (double& x : g) x *= scale_to_us;
  r.armada = bench::summarize(a);
  if (have_ga) {
    r.baseline = "ga";
    r.baseline_stats = bench::summarize(g);
  }
  r.fields.push_back(bench::field("ranks", static_cast<long long>(g_size)));
  out.add(r);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  // The MPI settings the transports need (mpi-rma: Open MPI's one-sided components), before MPI_Init.
  rma::prepare_mpi_environment();
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  bench::Options opt;
  if (const auto exit_code =
          bench::parse_command_line(argc, argv, "armada-bench-arrays", {"patch", "readinc"}, opt, g_rank == 0)) {
    MPI_Finalize();
    return *exit_code;
  }
  rma::init_or_exit("armada-bench-arrays", MPI_COMM_WORLD);
#ifdef ARMADA_BENCH_WITH_GA
  const bool have_ga = true;
  GA_Initialize();
  MA_init(C_DBL, 1 << 20, 1 << 20);
#else
  const bool have_ga = false;
#endif
  int status = 0;
  {
    bench::ResultWriter out(g_rank == 0, opt.output);
    out.meta({bench::field("program", std::string("armada-bench-arrays")), bench::field("ranks", static_cast<long long>(g_size)),
              bench::field("array", std::string("2048x2048 double")),
              bench::field("baseline", std::string(have_ga ? "Global Arrays 5.8 (ARMCI-MPI)" : "none (built without GA)"))});
    if (!have_ga) out.note("Global Arrays baseline not built (libglobalarrays-dev/libarmci-mpi-dev missing at configure time)");

    auto A = arrays::GlobalArray<double>::create({kN, kN});
#ifdef ARMADA_BENCH_WITH_GA
    int gdims[2] = {static_cast<int>(kN), static_cast<int>(kN)};
    const int g_a = NGA_Create(C_DBL, 2, gdims, const_cast<char*>("bench"), nullptr);
    GA_Zero(g_a);
#endif
    arrays::zero(A);

    if (bench::selected(opt, "patch")) {
      out.section("patch operations, square patch centered in a 2048x2048 double array (spans every owner), time per op");
      const std::vector<long> sides = opt.quick ? std::vector<long>{64, 512} : std::vector<long>{16, 64, 256, 512, 1024};
      for (long m : sides) {
        const long lo = (kN - m) / 2, hi = lo + m;
        const std::size_t elems = static_cast<std::size_t>(m * m);
        std::vector<double> src(elems), dst(elems);
        for (std::size_t i = 0; i < elems; ++i) src[i] = static_cast<double>(i % 1000) + 0.5;
        const Coord plo{lo, lo}, phi{hi, hi};
#ifdef ARMADA_BENCH_WITH_GA
        int glo[2] = {static_cast<int>(lo), static_cast<int>(lo)}, ghi[2] = {static_cast<int>(hi - 1), static_cast<int>(hi - 1)};
        int gld[1] = {static_cast<int>(m)};
#endif
        const std::size_t iters = opt.quick ? 5 : std::max<std::size_t>(5, static_cast<std::size_t>(4e6 / static_cast<double>(elems)));
        Pair get, put, acc;
        double one = 1.0;
        for (int rep = 0; rep < opt.reps; ++rep) {
          put.armada.push_back(timed([&](std::size_t) { A.put(plo, phi, src.data()); }, iters));
          get.armada.push_back(timed([&](std::size_t) { A.get(plo, phi, dst.data()); }, iters));
          acc.armada.push_back(timed([&](std::size_t) { A.acc(plo, phi, src.data(), one); }, iters));
#ifdef ARMADA_BENCH_WITH_GA
          put.ga.push_back(timed([&](std::size_t) { NGA_Put(g_a, glo, ghi, src.data(), gld); }, iters));
          get.ga.push_back(timed([&](std::size_t) { NGA_Get(g_a, glo, ghi, dst.data(), gld); }, iters));
          acc.ga.push_back(timed([&](std::size_t) { NGA_Acc(g_a, glo, ghi, src.data(), gld, &one); }, iters));
#endif
        }
        // Verify: put the pattern, read it back through both libraries; then one accumulate.
        A.sync();
        if (g_rank == 0) {
          A.put(plo, phi, src.data());
          A.get(plo, phi, dst.data());
          check(dst == src, "armada put/get " + std::to_string(m));
          A.acc(plo, phi, src.data(), 2.0);
          A.get(plo, phi, dst.data());
          bool ok = true;
          for (std::size_t i = 0; i < elems; ++i) ok &= dst[i] == 3 * src[i];
          check(ok, "armada acc " + std::to_string(m));
#ifdef ARMADA_BENCH_WITH_GA
          NGA_Put(g_a, glo, ghi, src.data(), gld);
          NGA_Get(g_a, glo, ghi, dst.data(), gld);
          check(dst == src, "GA put/get " + std::to_string(m));
#endif
        }
        A.sync();
        const std::string size = std::to_string(m) + "x" + std::to_string(m);
        report(out, "patch_get", "get " + size, elems * 8, get, have_ga, 1e6);
        report(out, "patch_put", "put " + size, elems * 8, put, have_ga, 1e6);
        report(out, "patch_acc", "acc " + size, elems * 8, acc, have_ga, 1e6);
      }
    }

    if (bench::selected(opt, "readinc")) {
      out.section("read_inc of a counter owned by the last rank, time per op");
      auto C = arrays::GlobalArray<long>::create({static_cast<long>(g_size)});
      const Coord where{static_cast<long>(g_size - 1)};
#ifdef ARMADA_BENCH_WITH_GA
      int cdims[1] = {g_size};
      const int g_c = NGA_Create(C_LONG, 1, cdims, const_cast<char*>("counter"), nullptr);
      GA_Zero(g_c);
      int gw[1] = {g_size - 1};
#endif
      const std::size_t iters = opt.quick ? 1000 : 200000;
      Pair ri;
      long sink = 0;
      for (int rep = 0; rep < opt.reps; ++rep) {
        ri.armada.push_back(timed([&](std::size_t) { sink += C.read_inc(where, 1); }, iters));
#ifdef ARMADA_BENCH_WITH_GA
        ri.ga.push_back(timed([&](std::size_t) { sink += NGA_Read_inc(g_c, gw, 1); }, iters));
#endif
      }
      C.sync();
      check(C.at(where) == static_cast<long>(iters) * opt.reps, "armada read_inc count");
#ifdef ARMADA_BENCH_WITH_GA
      long gv = 0;
      NGA_Get(g_c, gw, gw, &gv, nullptr);
      check(gv == static_cast<long>(iters) * opt.reps, "GA read_inc count");
      GA_Destroy(g_c);
#endif
      report(out, "read_inc", "read_inc remote", 8, ri, have_ga, 1e6);
      C.sync();
      C.destroy();
      if (sink == -1) std::printf(" ");
    }
    A.destroy();
#ifdef ARMADA_BENCH_WITH_GA
    GA_Destroy(g_a);
#endif
    int bad = g_failures, total = 0;
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!out.close()) total += 1;
    if (total) status = 1;
    if (g_rank == 0) std::printf("%s\n", total ? "VERIFICATION FAILED" : "all data checks passed");
  }
#ifdef ARMADA_BENCH_WITH_GA
  GA_Terminate();
#endif
  rma::finalize();
  MPI_Finalize();
  return status;
}
