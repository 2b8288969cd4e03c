// Ghost-cell stencil: a 2-D heat equation on a periodic grid, Jacobi steps on each rank's block
// with a one-cell ghost frame refreshed by update_ghosts(). Checks the result against the same
// steps done serially and exits 1 if any rank differs.
#include <armada/arrays/arrays.hpp>
#include <armada/rma/rma.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace aa = armada::arrays;
namespace rma = armada::rma;

constexpr int rows = 24, cols = 20, steps = 10;

double initial(long i, long j) { return std::sin(0.3 * static_cast<double>(i)) + 0.1 * static_cast<double>(j % 7); }

// The serial reference: the whole grid, every rank alike.
std::vector<double> serial_steps() {
  std::vector<double> u(rows * cols), next(rows * cols);
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) u[i * cols + j] = initial(i, j);
  auto at = [&](long i, long j) { return u[((i + rows) % rows) * cols + (j + cols) % cols]; };
  for (int s = 0; s < steps; ++s) {
    for (long i = 0; i < rows; ++i)
      for (long j = 0; j < cols; ++j)
        next[i * cols + j] = 0.25 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
    u.swap(next);
  }
  return u;
}

int main(int argc, char** argv) {
  rma::Session session("example_stencil", &argc, &argv);
  aa::ArrayOptions options;
  options.name = "u";
  options.ghosts = {1, 1};
  auto u = aa::GlobalArray<double>::create({rows, cols}, options);
  auto next = u.duplicate("next");

  // Every rank writes its own block, in place.
  auto mine = u.access();
  for (long i = mine.lo[0]; i < mine.hi[0]; ++i)
    for (long j = mine.lo[1]; j < mine.hi[1]; ++j) mine[{i, j}] = initial(i, j);
  u.release_update();

  for (int s = 0; s < steps; ++s) {
    u.update_ghosts(/*periodic=*/true);  // barriers u's group before and after
    auto in = u.access_ghosts();
    auto out = next.access();
    for (long i = out.lo[0]; i < out.hi[0]; ++i)
      for (long j = out.lo[1]; j < out.hi[1]; ++j)
        out[{i, j}] = 0.25 * (in[{i - 1, j}] + in[{i + 1, j}] + in[{i, j - 1}] + in[{i, j + 1}]);
    u.release();
    next.release_update();
    std::swap(u, next);
  }
  aa::sync();

  const auto want = serial_steps();
  auto got = u.access();
  long wrong = 0;
  for (long i = got.lo[0]; i < got.hi[0]; ++i)
    for (long j = got.lo[1]; j < got.hi[1]; ++j)
      if (std::abs(got[{i, j}] - want[i * cols + j]) > 1e-12) ++wrong;
  u.release();
  rma::allreduce(std::span<long>(&wrong, 1), rma::ReduceOp::Sum);
  if (rma::rank() == 0)
    std::printf("stencil: %d x %d grid, %d steps on %d ranks: %s\n", rows, cols, steps, rma::size(),
                wrong == 0 ? "matches the serial result" : "WRONG");
  u.destroy();
  next.destroy();
  return wrong == 0 ? 0 : 1;
}
