// Task-counter matrix multiply: C = A * B in tiles; each rank takes the next tile number from a
// shared counter (read_inc, atomic), gets the A row panel and B column panel it needs, multiplies
// locally and puts the tile of C. Dynamic load balancing with no central scheduler. Checks every
// element of C against the formula and exits 1 on a wrong one.
#include <armada/arrays/arrays.hpp>
#include <armada/rma/rma.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace aa = armada::arrays;
namespace rma = armada::rma;

constexpr long n = 60, tile = 16;  // n need not be a multiple of the tile
constexpr long tiles_per_dim = (n + tile - 1) / tile;

double a_elem(long i, long k) { return static_cast<double>((i + 2 * k) % 5) - 1.0; }
double b_elem(long k, long j) { return static_cast<double>((3 * k + j) % 4) + 0.5; }

// Each rank writes the block it owns, in place.
void fill_local(aa::GlobalArray<double>& m, double (*f)(long, long)) {
  auto v = m.access();
  for (long i = v.lo[0]; i < v.hi[0]; ++i)
    for (long j = v.lo[1]; j < v.hi[1]; ++j) v[{i, j}] = f(i, j);
  m.release_update();
}

int main(int argc, char** argv) {
  rma::Session session("example_matmul", &argc, &argv);
  auto a = aa::GlobalArray<double>::create({n, n}, {.name = "A"});
  auto b = aa::GlobalArray<double>::create({n, n}, {.name = "B"});
  auto c = aa::GlobalArray<double>::create({n, n}, {.name = "C"});
  auto counter = aa::GlobalArray<long>::create({1}, {.name = "next tile"});
  aa::zero(counter);
  fill_local(a, a_elem);
  fill_local(b, b_elem);
  aa::sync();

  std::vector<double> arow, bcol, ctile;
  long done = 0;
  for (long t = counter.read_inc({0}); t < tiles_per_dim * tiles_per_dim; t = counter.read_inc({0})) {
    const long i0 = (t / tiles_per_dim) * tile, j0 = (t % tiles_per_dim) * tile;
    const long ni = std::min(tile, n - i0), nj = std::min(tile, n - j0);
    arow = a.get({i0, 0}, {i0 + ni, n});  // ni x n
    bcol = b.get({0, j0}, {n, j0 + nj});  // n x nj
    ctile.assign(static_cast<std::size_t>(ni * nj), 0.0);
    for (long i = 0; i < ni; ++i)
      for (long k = 0; k < n; ++k)
        for (long j = 0; j < nj; ++j) ctile[i * nj + j] += arow[i * n + k] * bcol[k * nj + j];
    c.put({i0, j0}, {i0 + ni, j0 + nj}, ctile.data());
    ++done;
  }
  aa::sync();

  auto v = c.access();
  long wrong = 0;
  for (long i = v.lo[0]; i < v.hi[0]; ++i)
    for (long j = v.lo[1]; j < v.hi[1]; ++j) {
      double want = 0;
      for (long k = 0; k < n; ++k) want += a_elem(i, k) * b_elem(k, j);
      if (v[{i, j}] != want) ++wrong;  // small integers and halves: exact in double
    }
  c.release();
  long totals[2] = {wrong, done};
  rma::allreduce(std::span<long>(totals, 2), rma::ReduceOp::Sum);
  if (rma::rank() == 0)
    std::printf("matmul: %ld x %ld in %ld tiles taken from a shared counter by %d ranks: %s\n", n, n, totals[1],
                rma::size(), totals[0] == 0 && totals[1] == tiles_per_dim * tiles_per_dim ? "correct" : "WRONG");
  for (auto* m : {&a, &b, &c}) m->destroy();
  counter.destroy();
  return totals[0] == 0 && totals[1] == tiles_per_dim * tiles_per_dim ? 0 : 1;
}
