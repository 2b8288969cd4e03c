#include "grid.hpp"

#include <algorithm>

namespace armada::mg {

Dim3<int> ProcessGrid::coords(int rank) const noexcept {
  return {rank / (p[1] * p[2]), (rank / p[2]) % p[1], rank % p[2]};
}

int ProcessGrid::rank_at(Dim3<int> c) const noexcept {
  for (int d = 0; d < 3; ++d) c[d] = ((c[d] % p[d]) + p[d]) % p[d];
  return (c[0] * p[1] + c[1]) * p[2] + c[2];
}

ProcessGrid choose_process_grid(int ranks, int n) {
  if (ranks < 1) throw LayoutError("rank count " + std::to_string(ranks) + " is not positive");
  std::vector<int> factors;
  for (int r = ranks, f = 2; r > 1;) {
    if (r % f == 0) {
      factors.push_back(f);
      r /= f;
    } else {
      f = f * f > r ? r : f + 1;
    }
  }
  std::sort(factors.rbegin(), factors.rend());
  ProcessGrid g;
  for (int f : factors) {
    int best = 0;  // longest block; the first (z) wins ties
    for (int d = 1; d < 3; ++d)
      if (static_cast<double>(n) / g.p[d] > static_cast<double>(n) / g.p[best]) best = d;
    g.p[best] *= f;
  }
  for (int d = 0; d < 3; ++d)
    if (2 * g.p[d] > n)
      throw LayoutError(std::to_string(ranks) + " ranks cannot split a " + std::to_string(n) + "^3 grid: " +
                        "the process grid " + std::to_string(g.p[0]) + "x" + std::to_string(g.p[1]) + "x" +
                        std::to_string(g.p[2]) + " gives " + std::to_string(g.p[d]) +
                        " ranks to a dimension of " + std::to_string(n) +
                        " points (at most n/2: every rank needs 2 points per dimension)");
  return g;
}

void LevelLayout::block(int rank, Dim3<Index>& lo, Dim3<Index>& hi) const {
  if (rank >= grid.size()) {
    lo = hi = {0, 0, 0};
    return;
  }
  const Dim3<int> c = grid.coords(rank);
  for (int d = 0; d < 3; ++d) {
    const auto& s = starts[d];
    lo[d] = s[c[d]];
    hi[d] = c[d] + 1 < static_cast<int>(s.size()) ? s[c[d] + 1] : n;
  }
}

int level_count(Index n) {
  if (n < 2 || (n & (n - 1)) != 0) throw LayoutError("grid size " + std::to_string(n) + " is not a power of two >= 2");
  int k = 0;
  while ((Index{1} << k) < n) ++k;
  return k;
}

std::vector<LevelLayout> plan_levels(Index n, const ProcessGrid& grid) {
  const int lt = level_count(n);
  std::vector<LevelLayout> levels(static_cast<std::size_t>(lt));
  // The coarsest distributed level splits evenly into even blocks; finer ones double it, so
  // that every level's bounds are twice the next coarser level's.
  int coarsest = lt + 1;
  for (int k = lt; k >= 1; --k) {
    const Index nk = n >> (lt - k);
    bool fits = true;
    for (int d = 0; d < 3; ++d) fits = fits && nk / 2 >= grid.p[d];
    if (!fits) break;
    coarsest = k;
  }
  if (coarsest > lt)
    throw LayoutError("the process grid " + std::to_string(grid.p[0]) + "x" + std::to_string(grid.p[1]) + "x" +
                      std::to_string(grid.p[2]) + " leaves some rank fewer than 2 points per dimension of " +
                      std::to_string(n) + "^3");
  for (int k = 1; k <= lt; ++k) {
    LevelLayout& L = levels[static_cast<std::size_t>(k - 1)];
    L.level = k;
    L.n = n >> (lt - k);
    L.distributed = k >= coarsest;
    L.grid = L.distributed ? grid : ProcessGrid{};
    for (int d = 0; d < 3; ++d) {
      auto& s = L.starts[d];
      s.assign(static_cast<std::size_t>(L.grid.p[d]), 0);
      const Index base_n = n >> (lt - coarsest), scale = L.n / base_n;
      for (int b = 0; b < L.grid.p[d]; ++b)
        s[static_cast<std::size_t>(b)] = L.distributed ? 2 * ((b * (base_n / 2)) / L.grid.p[d]) * scale : 0;
    }
  }
  return levels;
}

LevelLayout halved(const LevelLayout& fine) {
  LevelLayout c = fine;
  c.level = fine.level - 1;
  c.n = fine.n / 2;
  for (auto& s : c.starts)
    for (Index& x : s) x /= 2;
  return c;
}

}  // namespace armada::mg
