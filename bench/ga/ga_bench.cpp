// armada-bench-ga / armada-bench-ga-ref: one Global Arrays program, built twice (issue 27):
// on Armada's own ga.h (armada::ga: GA's API over armada::arrays) and on Debian's Global Arrays
// 5.8 over ARMCI-MPI. It calls nothing but GA's C API (ga.h, macdecls.h) and MPI, so the two
// binaries time the same calls; scripts/bench-ga.sh runs them alternately in one launch of the
// script and reports Armada / GA ratios.
//
// Figures (medians over --reps repetitions, [min..max]), every one verified:
//   patch_get/put/acc  rank 0 moves a centered square patch of a 2048 x 2048 double array that
//                      spans every owner, the others wait in a barrier (time per operation)
//   read_inc           rank 0 increments a counter that the last rank owns (time per operation)
//   dgemm              GA_Dgemm of n x n arrays, every rank (time per call)
//   task_pool          a program: C = A B in 128 x 128 blocks, tasks taken with NGA_Read_inc,
//                      blocks fetched with NGA_Get, products added with NGA_Acc (time per run)
//
//   mpiexec -n 2 armada-bench-ga [--quick] [--reps N] [--only patch,readinc,dgemm,taskpool]
//                                [--output results.jsonl]
#include <ga.h>
#include <macdecls.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "common/options.hpp"
#include "common/results.hpp"
#include "common/stats.hpp"
#include "common/timing.hpp"

namespace bench = armada::bench;

namespace {

#ifdef ARMADA_BENCH_GA_REFERENCE
constexpr const char* kProgram = "armada-bench-ga-ref";
constexpr const char* kImplementation = "Global Arrays 5.8 (Debian, ARMCI-MPI)";
#else
constexpr const char* kProgram = "armada-bench-ga";
constexpr const char* kImplementation = "Armada ga.h (armada::ga over armada::arrays)";
#endif
constexpr int kN = 2048;

int g_rank = 0, g_size = 1;
int g_failures = 0;

void check(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failures;
  std::fprintf(stderr, "[rank %d] %s: verification failed: %s\n", g_rank, kProgram, what.c_str());
}

/// Runs `op` `iters` times on rank 0 (`everyone`: on every rank) between barriers; seconds per
/// operation, the slowest rank's.
template <class Op>
double timed(Op&& op, std::size_t iters, bool everyone = false) {
  GA_Sync();
  double per = 0;
  if (everyone || g_rank == 0) {
    const auto t0 = bench::Clock::now();
    for (std::size_t i = 0; i < iters; ++i) op();
    per = bench::seconds(t0, bench::Clock::now()) / static_cast<double>(iters);
  }
  GA_Sync();
  double slowest = 0;
  MPI_Allreduce(&per, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

void report(bench::ResultWriter& out, const std::string& name, const std::string& label, std::size_t bytes,
            std::vector<double> seconds, bench::Unit unit = bench::Unit::Micros) {
  bench::Result r;
  r.bench = name;
  r.label = label;
  r.bytes = bytes;
  r.variant = "hot";
  r.unit = unit;
  for (double& s : seconds) s *= 1e6;
  r.armada = bench::summarize(seconds);
  r.fields.push_back(bench::field("ranks", static_cast<long long>(g_size)));
  r.fields.push_back(bench::field("impl", std::string(kProgram)));
  out.add(r);
}

void patch_operations(bench::ResultWriter& out, const bench::Options& opt) {
  out.section("patch operations, square patch centered in a 2048x2048 double array (spans every owner), time per op");
  int dims[2] = {kN, kN};
  const int g_a = NGA_Create(C_DBL, 2, dims, const_cast<char*>("patch"), nullptr);
  GA_Zero(g_a);
  const std::vector<int> sides = opt.quick ? std::vector<int>{64, 512} : std::vector<int>{16, 64, 256, 512, 1024};
  for (int m : sides) {
    int lo[2] = {(kN - m) / 2, (kN - m) / 2}, hi[2] = {lo[0] + m - 1, lo[1] + m - 1}, ld[1] = {m};
    const auto elems = static_cast<std::size_t>(m) * static_cast<std::size_t>(m);
    std::vector<double> src(elems), dst(elems);
    for (std::size_t i = 0; i < elems; ++i) src[i] = static_cast<double>(i % 1000) + 0.5;
    const std::size_t iters = opt.quick ? 5 : std::max<std::size_t>(5, static_cast<std::size_t>(4e6 / static_cast<double>(elems)));
    double one = 1.0;
    std::vector<double> get, put, acc;
    for (int rep = 0; rep < opt.reps; ++rep) {
      put.push_back(timed([&] { NGA_Put(g_a, lo, hi, src.data(), ld); }, iters));
      get.push_back(timed([&] { NGA_Get(g_a, lo, hi, dst.data(), ld); }, iters));
      acc.push_back(timed([&] { NGA_Acc(g_a, lo, hi, src.data(), ld, &one); }, iters));
    }
    if (g_rank == 0) {  // put the pattern, read it back, accumulate twice it
      NGA_Put(g_a, lo, hi, src.data(), ld);
      NGA_Get(g_a, lo, hi, dst.data(), ld);
      check(dst == src, "put/get " + std::to_string(m));
      double two = 2.0;
      NGA_Acc(g_a, lo, hi, src.data(), ld, &two);
      NGA_Get(g_a, lo, hi, dst.data(), ld);
      bool ok = true;
      for (std::size_t i = 0; i < elems; ++i) ok &= dst[i] == 3 * src[i];
      check(ok, "acc " + std::to_string(m));
    }
    GA_Sync();
    const std::string size = std::to_string(m) + "x" + std::to_string(m);
    report(out, "patch_get", "get " + size, elems * 8, get);
    report(out, "patch_put", "put " + size, elems * 8, put);
    report(out, "patch_acc", "acc " + size, elems * 8, acc);
  }
  GA_Destroy(g_a);
}

void read_inc(bench::ResultWriter& out, const bench::Options& opt) {
  out.section("read_inc of a counter owned by the last rank, time per op");
  int dims[1] = {g_size};
  const int g_c = NGA_Create(C_LONG, 1, dims, const_cast<char*>("counter"), nullptr);
  GA_Zero(g_c);
  int where[1] = {g_size - 1};
  const std::size_t iters = opt.quick ? 1000 : 100000;
  std::vector<double> t;
  long last = -1;
  for (int rep = 0; rep < opt.reps; ++rep) t.push_back(timed([&] { last = NGA_Read_inc(g_c, where, 1); }, iters));
  long value = 0;
  NGA_Get(g_c, where, where, &value, nullptr);
  check(value == static_cast<long>(iters) * opt.reps, "read_inc count " + std::to_string(value));
  if (g_rank == 0) check(last + 1 == value, "read_inc returned " + std::to_string(last) + " last");
  report(out, "read_inc", "read_inc remote", 8, t);
  GA_Destroy(g_c);
}

/// n x n arrays: A all 1, B all 2; C = A B holds 2n everywhere.
void dgemm(bench::ResultWriter& out, const bench::Options& opt) {
  out.section("GA_Dgemm('N', 'N') of n x n double arrays on every rank, time per call");
  for (int n : opt.quick ? std::vector<int>{256} : std::vector<int>{512, 1024}) {
    int dims[2] = {n, n};
    const int g_a = NGA_Create(C_DBL, 2, dims, const_cast<char*>("A"), nullptr);
    const int g_b = NGA_Create(C_DBL, 2, dims, const_cast<char*>("B"), nullptr);
    const int g_c = NGA_Create(C_DBL, 2, dims, const_cast<char*>("C"), nullptr);
    double one = 1, two = 2;
    GA_Fill(g_a, &one);
    GA_Fill(g_b, &two);
    std::vector<double> t;
    const std::size_t iters = opt.quick ? 1 : 3;
    for (int rep = 0; rep < opt.reps; ++rep)
      t.push_back(timed([&] { GA_Dgemm('N', 'N', n, n, n, 1.0, g_a, g_b, 0.0, g_c); }, iters, true));
    const double expected = 2.0 * n * n * n;  // n^2 elements of C, 2n each
    const double sum = GA_Ddot(g_c, g_a);              // A is all ones
    check(std::fabs(sum - expected) <= 1e-9 * expected, "dgemm " + std::to_string(n) + ": sum " + std::to_string(sum));
    report(out, "dgemm", "dgemm " + std::to_string(n), static_cast<std::size_t>(n) * n * 8, t);
    GA_Destroy(g_c);
    GA_Destroy(g_b);
    GA_Destroy(g_a);
  }
}

/// C = A B over a pool of block tasks: every rank takes the next (i, j, k) block product with
/// NGA_Read_inc, fetches A(i, k) and B(k, j) with NGA_Get, multiplies locally and adds the
/// product into C(i, j) with NGA_Acc. A(r, c) = r + c and B all 1 (mod 7 to keep sums exact), so
/// C(r, c) = sum_k (r + k) mod 7, checked on a few rows.
void task_pool(bench::ResultWriter& out, const bench::Options& opt) {
  const int n = opt.quick ? 256 : 1024, b = 128, nb = n / b;
  out.section("task pool: C = A B (" + std::to_string(n) + "^2, blocks of " + std::to_string(b) +
              "^2 taken with read_inc, get, local product, acc), time per run");
  int dims[2] = {n, n}, one_dim[1] = {1}, zero[1] = {0};
  const int g_a = NGA_Create(C_DBL, 2, dims, const_cast<char*>("A"), nullptr);
  const int g_b = NGA_Create(C_DBL, 2, dims, const_cast<char*>("B"), nullptr);
  const int g_c = NGA_Create(C_DBL, 2, dims, const_cast<char*>("C"), nullptr);
  const int g_next = NGA_Create(C_LONG, 1, one_dim, const_cast<char*>("next task"), nullptr);
  double ones = 1;
  GA_Fill(g_b, &ones);
  {  // each rank writes its own block of A
    int lo[2], hi[2];
    NGA_Distribution(g_a, g_rank, lo, hi);
    if (lo[0] >= 0 && hi[0] >= lo[0]) {
      const int rows = hi[0] - lo[0] + 1, cols = hi[1] - lo[1] + 1;
      std::vector<double> mine(static_cast<std::size_t>(rows) * cols);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) mine[static_cast<std::size_t>(r) * cols + c] = (lo[0] + r + lo[1] + c) % 7;
      int ld[1] = {cols};
      NGA_Put(g_a, lo, hi, mine.data(), ld);
    }
  }
  std::vector<double> ablk(static_cast<std::size_t>(b) * b), bblk(ablk.size()), cblk(ablk.size());
  const long tasks = static_cast<long>(nb) * nb * nb;
  auto run = [&] {
    GA_Zero(g_c);
    GA_Zero(g_next);
    GA_Sync();
    int ld[1] = {b};
    for (long t = NGA_Read_inc(g_next, zero, 1); t < tasks; t = NGA_Read_inc(g_next, zero, 1)) {
      const int i = static_cast<int>(t / (nb * nb)), j = static_cast<int>(t / nb % nb), k = static_cast<int>(t % nb);
      int alo[2] = {i * b, k * b}, ahi[2] = {i * b + b - 1, k * b + b - 1};
      int blo[2] = {k * b, j * b}, bhi[2] = {k * b + b - 1, j * b + b - 1};
      int clo[2] = {i * b, j * b}, chi[2] = {i * b + b - 1, j * b + b - 1};
      NGA_Get(g_a, alo, ahi, ablk.data(), ld);
      NGA_Get(g_b, blo, bhi, bblk.data(), ld);
      std::fill(cblk.begin(), cblk.end(), 0.0);
      for (int r = 0; r < b; ++r)
        for (int q = 0; q < b; ++q) {
          const double a = ablk[static_cast<std::size_t>(r) * b + q];
          const double* brow = &bblk[static_cast<std::size_t>(q) * b];
          double* crow = &cblk[static_cast<std::size_t>(r) * b];
          for (int c = 0; c < b; ++c) crow[c] += a * brow[c];
        }
      double alpha = 1;
      NGA_Acc(g_c, clo, chi, cblk.data(), ld, &alpha);
    }
  };
  std::vector<double> t;
  for (int rep = 0; rep < opt.reps; ++rep) t.push_back(timed(run, 1, true));
  if (g_rank == 0) {
    for (int r : {0, n / 2 + 3, n - 1}) {
      std::vector<double> row(static_cast<std::size_t>(n));
      int lo[2] = {r, 0}, hi[2] = {r, n - 1}, ld[1] = {n};
      NGA_Get(g_c, lo, hi, row.data(), ld);
      bool ok = true;
      for (int c = 0; c < n; ++c) {
        double expected = 0;
        for (int k = 0; k < n; ++k) expected += (r + k) % 7;
        ok &= row[static_cast<std::size_t>(c)] == expected;
      }
      check(ok, "task pool row " + std::to_string(r));
    }
  }
  GA_Sync();
  report(out, "task_pool", "task pool " + std::to_string(n), static_cast<std::size_t>(n) * n * 8, t);
  GA_Destroy(g_next);
  GA_Destroy(g_c);
  GA_Destroy(g_b);
  GA_Destroy(g_a);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  bench::Options opt;
  if (const auto exit_code =
          bench::parse_command_line(argc, argv, kProgram, {"patch", "readinc", "dgemm", "taskpool"}, opt, g_rank == 0)) {
    MPI_Finalize();
    return *exit_code;
  }
  GA_Initialize();
  MA_init(C_DBL, 1 << 20, 1 << 20);
  int total = 0;
  {
    bench::ResultWriter out(g_rank == 0, opt.output);
    out.meta({bench::field("program", std::string(kProgram)), bench::field("implementation", std::string(kImplementation)),
              bench::field("ranks", static_cast<long long>(g_size))});
    if (bench::selected(opt, "patch")) patch_operations(out, opt);
    if (bench::selected(opt, "readinc")) read_inc(out, opt);
    if (bench::selected(opt, "dgemm")) dgemm(out, opt);
    if (bench::selected(opt, "taskpool")) task_pool(out, opt);
    MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!out.close()) total += 1;
    if (g_rank == 0) std::printf("%s\n", total ? "VERIFICATION FAILED" : "all data checks passed");
  }
  GA_Terminate();
  MPI_Finalize();
  return total ? 1 : 0;
}
