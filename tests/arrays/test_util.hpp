// Helpers of the arrays tests: a serial reference array held by every rank, random shapes,
// patches and distributions drawn from generators seeded alike on every rank (so every rank
// creates the same arrays and knows what every writer wrote), and error checks.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/rma.hpp"

namespace armada::arrays {
/// gtest prints index tuples as "[1, 2]".
inline void PrintTo(const Coord& c, std::ostream* os) { *os << c.str(); }
}  // namespace armada::arrays

namespace armada::arrays::test {

using Types = ::testing::Types<int, long, float, double, std::complex<float>, std::complex<double>>;

/// A small exact value of T for integer x (complex: a non-zero imaginary part too), so that
/// sums and products stay exact in every type.
template <class T>
T value(long x) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return T(static_cast<typename T::value_type>(x), static_cast<typename T::value_type>(x % 5 - 2));
  else
    return static_cast<T>(x);
}

/// The whole array, serially, row-major.
template <class T>
struct Reference {
  Coord dims;
  std::vector<T> v;
  explicit Reference(const Coord& d) : dims(d), v(static_cast<std::size_t>(d.product()), T{}) {}
  Index offset(const Coord& g) const {
    Index o = 0;
    for (int d = 0; d < dims.size(); ++d) o = o * dims[d] + g[d];
    return o;
  }
  T& at(const Coord& g) { return v[static_cast<std::size_t>(offset(g))]; }
  const T& at(const Coord& g) const { return v[static_cast<std::size_t>(offset(g))]; }
  /// Calls f(global index, dense position) over box [lo, hi) taking every skip[d]-th index.
  template <class F>
  static void each(const Coord& lo, const Coord& hi, F&& f, const Coord* skip = nullptr) {
    const int n = lo.size();
    for (int d = 0; d < n; ++d)
      if (hi[d] <= lo[d]) return;
    Coord g = lo;
    Index pos = 0;
    for (;;) {
      f(g, pos++);
      int d = n - 1;
      for (; d >= 0; --d) {
        g[d] += skip ? (*skip)[d] : 1;
        if (g[d] < hi[d]) break;
        g[d] = lo[d];
      }
      if (d < 0) return;
    }
  }
  /// Index wrapped into the array (periodic operations).
  Coord wrap(const Coord& g) const {
    Coord w = g;
    for (int d = 0; d < dims.size(); ++d) w[d] = ((g[d] % dims[d]) + dims[d]) % dims[d];
    return w;
  }
};

/// A random patch of an array with `dims` (empty ones included now and then).
inline Patch random_patch(std::mt19937_64& rng, const Coord& dims, bool allow_empty = true) {
  Patch p{dims, dims};
  for (int d = 0; d < dims.size(); ++d) {
    std::uniform_int_distribution<Index> lo(0, dims[d] - (allow_empty ? 0 : 1));
    p.lo[d] = lo(rng);
    std::uniform_int_distribution<Index> hi(std::min(dims[d], p.lo[d] + (allow_empty ? 0 : 1)), dims[d]);
    p.hi[d] = hi(rng);
  }
  return p;
}

/// A random array shape and distribution for `nprocs` processes.
struct Layout {
  Coord dims;
  ArrayOptions options;
  std::string label;
};

/// Layout kinds 4, 5, 6: a random block-cyclic distribution of `dims` (Layout::cyclic,
/// proc_grid, tiled) for `nprocs` processes, blocks of 1 to 7 elements a side (edge blocks cut).
inline Distribution random_cyclic(std::mt19937_64& rng, int nprocs, const Coord& dims, int kind) {
  auto rnd = [&](Index a, Index b) { return std::uniform_int_distribution<Index>(a, b)(rng); };
  Coord block = dims;
  for (int d = 0; d < dims.size(); ++d) block[d] = rnd(1, std::min<Index>(7, dims[d] + 1));
  if (kind == 4) return Distribution::block_cyclic(dims, block, nprocs);
  Coord grid = Coord::filled(dims.size(), 1);  // often fewer grid places than processes
  Index left = nprocs;
  for (int d = dims.size() - 1; d >= 0 && left > 1; --d) {
    grid[d] = rnd(1, left);
    left /= grid[d];
  }
  return Distribution::block_cyclic(dims, block, grid, nprocs, kind == 6);
}

/// Layout kinds 0-3 cut the array into one block per process; 4-6 are block-cyclic.
inline constexpr int layout_kinds = 7;

inline Layout random_layout(std::mt19937_64& rng, int nprocs, int ndim, int kind) {
  static const Index max_extent[] = {0, 200, 30, 11, 7, 5, 4, 3};
  Layout l;
  l.dims = Coord::filled(ndim, 1);
  for (int d = 0; d < ndim; ++d) l.dims[d] = std::uniform_int_distribution<Index>(1, max_extent[ndim])(rng);
  auto rnd = [&](Index a, Index b) { return std::uniform_int_distribution<Index>(a, b)(rng); };
  switch (kind) {
    case 0:
      l.label = "balanced";
      break;
    case 1: {
      // An explicit grid, often with fewer blocks than processes (those own nothing).
      l.label = "grid";
      l.options.grid = Coord::filled(ndim, 1);
      Index left = nprocs;
      for (int d = 0; d < ndim && left > 1; ++d) {
        const Index g = rnd(1, left);
        l.options.grid[d] = g;
        left /= g;
      }
      break;
    }
    case 2: {
      l.label = "chunk";
      l.options.chunk = Coord::filled(ndim, 0);
      for (int d = 0; d < ndim; ++d) l.options.chunk[d] = rnd(0, l.dims[d]);
      break;
    }
    case 4: case 5: case 6:
      l.options.distribution = random_cyclic(rng, nprocs, l.dims, kind);
      l.label = l.options.distribution->str();
      break;
    default: {
      // Irregular and uneven, with empty blocks (equal starts) now and then.
      l.label = "irregular";
      Index left = nprocs;
      for (int d = 0; d < ndim; ++d) {
        const Index nb = left > 1 ? rnd(1, left) : 1;
        left /= nb;
        std::vector<Index> s{0};
        for (Index k = 1; k < nb; ++k) s.push_back(rnd(s.back(), l.dims[d]));
        l.options.block_starts.push_back(s);
      }
      break;
    }
  }
  l.label += " " + std::to_string(ndim) + "-D dims " + l.dims.str();
  return l;
}

/// Runs `f` and checks it throws E whose message contains every one of `fragments`.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected an exception, none was thrown";
  } catch (const E& e) {
    const std::string what = e.what();
    for (const auto& frag : fragments)
      EXPECT_NE(what.find(frag), std::string::npos) << "message '" << what << "' lacks '" << frag << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

/// For collectives called with a bad argument on the last rank only: true there.
inline bool last_rank() { return rma::rank() == rma::size() - 1; }

/// Runs f on every rank: f must throw an rma::Error on every rank whose message names `op`; the
/// bad (last) rank's message carries `bad_fragment`, the others name that rank as the one that
/// failed (rma::agree) instead of waiting for it.
template <class F>
void expect_every_rank_fails(F&& f, const std::string& op, const std::string& bad_fragment) {
  try {
    f();
    ADD_FAILURE() << "rank " << rma::rank() << ": " << op << " did not fail";
  } catch (const rma::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(op), std::string::npos) << what;
    if (last_rank())
      EXPECT_NE(what.find(bad_fragment), std::string::npos) << what;
    else
      EXPECT_NE(what.find("rank " + std::to_string(rma::size() - 1) + " failed"), std::string::npos) << what;
  }
}

}  // namespace armada::arrays::test
