// A plain serial MG for the tests: whole periodic grids in std::vectors, every operator written
// straight from its definition (a weighted sum over the 27 neighbours, indices taken modulo n)
// rather than from the row-temporary form of apps/mg/kernels.cpp. Sums run in another order,
// so results agree to rounding, not to the bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "armada/apps/npb_random.hpp"
#include "classes.hpp"

namespace armada::mg::test {

struct Grid {
  Index n = 0;
  std::vector<double> v;
  explicit Grid(Index size = 0) : n(size), v(static_cast<std::size_t>(size * size * size), 0.0) {}
  static Index wrap(Index i, Index n) { return ((i % n) + n) % n; }
  double& operator()(Index z, Index y, Index x) {
    return v[static_cast<std::size_t>((wrap(z, n) * n + wrap(y, n)) * n + wrap(x, n))];
  }
  double operator()(Index z, Index y, Index x) const { return const_cast<Grid&>(*this)(z, y, x); }
};

/// Uniform random values in [-1, 1), the same on every rank for the same seed.
inline Grid random_grid(Index n, unsigned seed) {
  Grid g(n);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (double& x : g.v) x = dist(gen);
  return g;
}

/// sum over the 27 neighbours of (z, y, x) of w[number of nonzero offsets] * g.
inline double stencil27(const Grid& g, Index z, Index y, Index x, const Stencil& w) {
  double s = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) s += w[std::abs(dz) + std::abs(dy) + std::abs(dx)] * g(z + dz, y + dy, x + dx);
  return s;
}

template <class F>
void each_point(Index n, F&& f) {
  for (Index z = 0; z < n; ++z)
    for (Index y = 0; y < n; ++y)
      for (Index x = 0; x < n; ++x) f(z, y, x);
}

inline Grid resid_ref(const Grid& u, const Grid& v, const Stencil& a) {
  Grid r(u.n);
  each_point(u.n, [&](Index z, Index y, Index x) { r(z, y, x) = v(z, y, x) - stencil27(u, z, y, x, a); });
  return r;
}

inline Grid psinv_ref(const Grid& r, Grid u, const Stencil& c) {
  each_point(u.n, [&](Index z, Index y, Index x) { u(z, y, x) += stencil27(r, z, y, x, c); });
  return u;
}

/// Coarse point J is the weighted mean around fine point 2J+1.
inline Grid rprj3_ref(const Grid& r) {
  Grid s(r.n / 2);
  const Stencil w{0.5, 0.25, 0.125, 0.0625};
  each_point(s.n, [&](Index z, Index y, Index x) { s(z, y, x) = stencil27(r, 2 * z + 1, 2 * y + 1, 2 * x + 1, w); });
  return s;
}

/// Fine point I takes coarse (I-1)/2 when I is odd, the mean of coarse I/2-1 and I/2 when even;
/// in 3-D the product of the three 1-D rules.
inline Grid interp_ref(const Grid& z, Grid u) {
  auto sources = [](Index i) {
    std::vector<std::pair<Index, double>> s;
    if (i % 2 == 1) s.push_back({(i - 1) / 2, 1.0});
    else s = {{i / 2 - 1, 0.5}, {i / 2, 0.5}};
    return s;
  };
  each_point(u.n, [&](Index k, Index j, Index i) {
    double add = 0;
    for (auto [zk, wk] : sources(k))
      for (auto [zj, wj] : sources(j))
        for (auto [zi, wi] : sources(i)) add += wk * wj * wi * z(zk, zj, zi);
    u(k, j, i) += add;
  });
  return u;
}

/// NPB's random field generated as one continuous sequence (no skip-ahead), then the charges.
inline Grid zran3_ref(Index n) {
  Grid field(n);
  double seed = zran3_seed;
  for (double& x : field.v) x = apps::randlc(seed, apps::npb_multiplier);
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t i = 0; i < field.v.size(); ++i) order.push_back({field.v[i], i});
  std::sort(order.begin(), order.end());
  Grid v(n);
  for (int i = 0; i < zran3_charge_count; ++i) {
    v.v[order[static_cast<std::size_t>(i)].second] = -1.0;
    v.v[order[order.size() - 1 - static_cast<std::size_t>(i)].second] = +1.0;
  }
  return v;
}

inline double l2_ref(const Grid& r) {
  double s = 0;
  for (double x : r.v) s += x * x;
  return std::sqrt(s / static_cast<double>(r.v.size()));
}

/// NPB's V-cycle on whole grids: levels[k-1] holds level k.
inline void mg3p_ref(std::vector<Grid>& u, std::vector<Grid>& r, const Grid& v, const Stencil& c) {
  const int lt = static_cast<int>(u.size());
  for (int k = lt; k >= 2; --k) r[k - 2] = rprj3_ref(r[k - 1]);
  u[0] = psinv_ref(r[0], Grid(u[0].n), c);
  for (int k = 2; k < lt; ++k) {
    u[k - 1] = interp_ref(u[k - 2], Grid(u[k - 1].n));
    r[k - 1] = resid_ref(u[k - 1], r[k - 1], operator_a);
    u[k - 1] = psinv_ref(r[k - 1], u[k - 1], c);
  }
  u[lt - 1] = interp_ref(u[lt - 2], u[lt - 1]);
  r[lt - 1] = resid_ref(u[lt - 1], v, operator_a);
  u[lt - 1] = psinv_ref(r[lt - 1], u[lt - 1], c);
}

}  // namespace armada::mg::test
