// Patch operations against a serial reference held by every rank: get/put/acc (blocking,
// nonblocking, with leading dimensions), strided, periodic, gather/scatter/scatter-acc and local
// views, over random shapes (1-D to 7-D), all element types and random distributions (balanced,
// explicit grids leaving ranks without a block, chunk hints, irregular maps with empty blocks).
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "test_seed.hpp"
#include "test_util.hpp"

namespace armada::arrays::test {
namespace {

int my_rank() { return rma::rank(); }
int nranks() { return rma::size(); }

template <class T>
std::vector<T> random_values(std::mt19937_64& rng, Index n) {
  std::vector<T> v(static_cast<std::size_t>(std::max<Index>(n, 0)));
  std::uniform_int_distribution<long> x(-50, 50);
  for (auto& e : v) e = value<T>(x(rng));
  return v;
}

Coord extents_skip(const Patch& p, const Coord& skip) {
  Coord e = p.extents();
  for (int d = 0; d < e.size(); ++d) e[d] = (e[d] + skip[d] - 1) / skip[d];
  return e;
}

Coord random_skip(std::mt19937_64& rng, int n) {
  Coord s = Coord::filled(n, 1);
  for (int d = 0; d < n; ++d) s[d] = std::uniform_int_distribution<Index>(1, 3)(rng);
  return s;
}

/// A periodic patch: any start, length up to `extents` times the extent (GA's limit: twice). A
/// put's patch stays within one extent: longer, it would write an element twice with two values.
Patch random_periodic(std::mt19937_64& rng, const Coord& dims, Index extents) {
  Patch p{dims, dims};
  for (int d = 0; d < dims.size(); ++d) {
    p.lo[d] = std::uniform_int_distribution<Index>(-dims[d], 2 * dims[d] - 1)(rng);
    p.hi[d] = p.lo[d] + std::uniform_int_distribution<Index>(0, extents * dims[d])(rng);
  }
  return p;
}

/// Distinct random elements (k of them, fewer if the array is small).
std::vector<Coord> random_elements(std::mt19937_64& rng, const Coord& dims, int k, bool distinct) {
  std::vector<Coord> v;
  std::set<std::vector<Index>> seen;
  for (int tries = 0; static_cast<int>(v.size()) < k && tries < 4 * k; ++tries) {
    Coord g = dims;
    for (int d = 0; d < dims.size(); ++d) g[d] = std::uniform_int_distribution<Index>(0, dims[d] - 1)(rng);
    if (distinct && !seen.insert(g.to_vector()).second) continue;
    v.push_back(g);
  }
  return v;
}

/// A buffer for patch extents `ext` padded in every dimension but the first: its ld and strides.
struct Padded {
  Coord ld, stride;
  Index size;
};
Padded padded(const Coord& ext, Index pad) {
  const int n = ext.size();
  Padded p{Coord::filled(n - 1, 0), Coord::filled(n, 1), 0};
  for (int d = 0; d < n - 1; ++d) p.ld[d] = ext[d + 1] + pad;
  for (int d = n - 2; d >= 0; --d) p.stride[d] = p.stride[d + 1] * p.ld[d];
  p.size = ext[0] * p.stride[0];
  return p;
}
Index buffer_pos(const Coord& g, const Coord& lo, const Coord& stride) {
  Index o = 0;
  for (int d = 0; d < g.size(); ++d) o += (g[d] - lo[d]) * stride[d];
  return o;
}

template <class T>
void verify_periodic_get(GlobalArray<T>& a, const Reference<T>& ref, const Patch& p) {
  std::vector<T> buf(static_cast<std::size_t>(p.elements()));
  a.periodic_get(p.lo, p.hi, buf.data());
  Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) {
    EXPECT_EQ(buf[static_cast<std::size_t>(pos)], ref.at(ref.wrap(g))) << "periodic_get " << p.lo.str() << ".." << p.hi.str() << " at " << g.str();
  });
}

/// Every rank reads random patches every way there is and compares with the reference.
/// A block-cyclic array's blocks in place (access_blocks), in the documented local-buffer order:
/// tiles one after another with a whole block's room each (cyclic, tiled), or ScaLAPACK's local
/// matrix (proc_grid: local element l is global index p + (l / block) * grid * block + l % block).
template <class T>
void verify_local_blocks(GlobalArray<T>& a, const Reference<T>& ref) {
  const Distribution& dist = a.distribution();
  const std::vector<LocalView<T>> views = a.access_blocks();
  const auto mine = dist.blocks_of(a.group().rank());
  ASSERT_EQ(views.size(), mine.size());
  const Index room = dist.block_extents().product();
  for (std::size_t i = 0; i < views.size(); ++i) {
    const Patch box = dist.block_patch(mine[i]);
    EXPECT_EQ(views[i].lo, box.lo);
    EXPECT_EQ(views[i].hi, box.hi);
    if (dist.layout() != arrays::Layout::proc_grid) {
      EXPECT_EQ(views[i].data, views[0].data + static_cast<std::ptrdiff_t>(i) * room) << "tile " << i;
    }
    Reference<T>::each(box.lo, box.hi, [&](const Coord& g, Index) { EXPECT_EQ(views[i][g], ref.at(g)) << "block view at " << g.str(); });
  }
  if (dist.layout() == arrays::Layout::proc_grid && !views.empty()) {
    const Coord shape = dist.local_shape(a.group().rank()), grid = dist.proc_grid(), b = dist.block_extents();
    const Coord p = mine[0];  // the first block's coordinates are the rank's grid coordinates
    Reference<T>::each(Coord::filled(shape.size(), 0), shape, [&](const Coord& l, Index pos) {
      Coord g = l;
      for (int d = 0; d < l.size(); ++d) g[d] = (p[d] + l[d] / b[d] * grid[d]) * b[d] + l[d] % b[d];
      EXPECT_EQ(views[0].data[pos], ref.at(g)) << "local matrix at " << l.str();
    });
  }
  a.release();
  expect_error<rma::InvalidArgument>([&] { (void)a.access(); }, {"arrays::access", "block-cyclic", "access_blocks"});
  expect_error<rma::InvalidArgument>([&] { (void)a.owned(); }, {"arrays::owned", "block-cyclic", "blocks_of"});
  a.sync();  // nobody writes before every rank has read
}

template <class T>
void verify(GlobalArray<T>& a, const Reference<T>& ref, std::mt19937_64& rng, const std::string& when) {
  SCOPED_TRACE(when);
  const Coord& dims = ref.dims;
  const int n = dims.size();
  // The whole array.
  const std::vector<T> all = a.get(Coord::filled(n, 0), dims);
  EXPECT_EQ(all, ref.v) << "whole-array get";
  // A dense patch, blocking and nonblocking, and a patch into a padded buffer.
  {
    const Patch p = random_patch(rng, dims);
    std::vector<T> got = a.get(p.lo, p.hi), nb(got.size());
    NbHandle h = a.get_nb(p.lo, p.hi, nb.data());
    h.wait();
    Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) {
      EXPECT_EQ(got[static_cast<std::size_t>(pos)], ref.at(g)) << "get " << p.lo.str() << ".." << p.hi.str() << " at " << g.str();
      EXPECT_EQ(nb[static_cast<std::size_t>(pos)], ref.at(g)) << "get_nb at " << g.str();
    });
    const Padded pd = padded(p.extents(), 2);
    std::vector<T> buf(static_cast<std::size_t>(std::max<Index>(pd.size, 0)), value<T>(999));
    a.get(p.lo, p.hi, buf.data(), pd.ld);
    Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index) {
      EXPECT_EQ(buf[static_cast<std::size_t>(buffer_pos(g, p.lo, pd.stride))], ref.at(g)) << "get with ld at " << g.str();
    });
  }
  // Strided.
  {
    const Patch p = random_patch(rng, dims);
    const Coord skip = random_skip(rng, n);
    std::vector<T> buf(static_cast<std::size_t>(Patch{Coord::filled(n, 0), extents_skip(p, skip)}.elements()));
    a.get_strided(p.lo, p.hi, skip, buf.data());
    Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) {
      EXPECT_EQ(buf[static_cast<std::size_t>(pos)], ref.at(g)) << "get_strided skip " << skip.str() << " at " << g.str();
    }, &skip);
  }
  // Periodic, up to twice the extent long.
  verify_periodic_get(a, ref, random_periodic(rng, dims, 2));
  // Gather (repeats allowed) and single elements.
  {
    const auto subs = random_elements(rng, dims, 20, false);
    std::vector<T> vals(subs.size());
    a.gather(subs, vals.data());
    for (std::size_t i = 0; i < subs.size(); ++i) {
      EXPECT_EQ(vals[i], ref.at(subs[i])) << "gather at " << subs[i].str();
      EXPECT_EQ(a.at(subs[i]), ref.at(subs[i])) << "at " << subs[i].str();
    }
  }
  if (a.distribution().cyclic()) return verify_local_blocks(a, ref);
  // The local block in place.
  {
    const LocalView<T> v = a.access();
    const Patch own = a.owned();
    EXPECT_EQ(v.lo, own.lo);
    EXPECT_EQ(v.hi, own.hi);
    Reference<T>::each(v.lo, v.hi, [&](const Coord& g, Index) { EXPECT_EQ(v[g], ref.at(g)) << "local view at " << g.str(); });
    a.release();
  }
  // Every rank's block in place where this process maps it (its own always, another node's
  // never; rma's NodeAddress test says which node peers are mapped under which transport).
  for (int r = 0; r < nranks(); ++r) {
    const LocalView<T> v = a.access_block(r);
    const Patch own = a.owned(r);
    if (r == my_rank() || !rma::same_node(my_rank(), r)) {
      EXPECT_EQ(v.data != nullptr, r == my_rank() && !own.empty()) << "access_block(" << r << ")";
    }
    if (v.data) {
      EXPECT_EQ(v.lo, own.lo);
      EXPECT_EQ(v.hi, own.hi);
      Reference<T>::each(v.lo, v.hi, [&](const Coord& g, Index) { EXPECT_EQ(v[g], ref.at(g)) << "block of " << r << " at " << g.str(); });
    } else {
      EXPECT_TRUE(v.empty());
    }
    a.release();
  }
  a.sync();  // nobody writes before every rank has read
}

/// A block-cyclic array's blocks partition the array, each rank's as blocks_of says, and
/// locate / locate_region agree with them.
template <class T>
void check_cyclic_distribution(const GlobalArray<T>& a, std::mt19937_64& rng) {
  const Distribution& dist = a.distribution();
  const Coord dims = a.dims();
  Reference<int> owner(dims);
  for (auto& o : owner.v) o = -1;
  for (int r = 0; r < nranks(); ++r)
    for (const Coord& k : dist.blocks_of(r)) {
      EXPECT_EQ(dist.block_owner(k), r);
      const Patch box = dist.block_patch(k);
      for (int d = 0; d < dims.size(); ++d) {
        EXPECT_EQ(box.lo[d], k[d] * dist.block_extents()[d]);
        EXPECT_EQ(box.hi[d], std::min(dims[d], box.lo[d] + dist.block_extents()[d]));
      }
      Reference<int>::each(box.lo, box.hi, [&](const Coord& g, Index) {
        EXPECT_EQ(owner.at(g), -1) << "two blocks hold " << g.str();
        owner.at(g) = r;
      });
    }
  for (int o : owner.v) EXPECT_NE(o, -1) << "the blocks do not cover the array";
  for (const Coord& g : random_elements(rng, dims, 10, false)) EXPECT_EQ(a.locate(g), owner.at(g)) << "locate " << g.str();
  const Patch p = random_patch(rng, dims);
  Index covered = 0;
  for (const Owner& o : a.locate_region(p.lo, p.hi)) {
    covered += o.patch.elements();
    Reference<int>::each(o.patch.lo, o.patch.hi, [&](const Coord& g, Index) { EXPECT_EQ(owner.at(g), o.rank) << g.str(); });
  }
  EXPECT_EQ(covered, p.elements()) << "locate_region " << p.lo.str() << ".." << p.hi.str();
}

/// The owners' blocks partition the array, and locate / locate_region agree with them.
template <class T>
void check_distribution(const GlobalArray<T>& a, std::mt19937_64& rng) {
  if (a.distribution().cyclic()) return check_cyclic_distribution(a, rng);
  const Coord dims = a.dims();
  Index total = 0;
  for (int r = 0; r < nranks(); ++r) total += a.owned(r).elements();
  EXPECT_EQ(total, dims.product()) << "blocks do not cover the array exactly";
  for (const Coord& g : random_elements(rng, dims, 10, false)) {
    const Patch own = a.owned(a.locate(g));
    for (int d = 0; d < g.size(); ++d) EXPECT_TRUE(own.lo[d] <= g[d] && g[d] < own.hi[d]) << "locate " << g.str();
  }
  const Patch p = random_patch(rng, dims);
  Index covered = 0;
  for (const Owner& o : a.locate_region(p.lo, p.hi)) {
    covered += o.patch.elements();
    const Patch own = a.owned(o.rank);
    for (int d = 0; d < dims.size(); ++d) {
      EXPECT_LE(own.lo[d], o.patch.lo[d]);
      EXPECT_GE(own.hi[d], o.patch.hi[d]);
      EXPECT_LE(p.lo[d], o.patch.lo[d]);
      EXPECT_GE(p.hi[d], o.patch.hi[d]);
    }
  }
  EXPECT_EQ(covered, p.elements()) << "locate_region " << p.lo.str() << ".." << p.hi.str();
}

template <class T>
void exercise(const Layout& layout, std::uint64_t seed) {
  SCOPED_TRACE(layout.label);
  std::mt19937_64 shared(seed), mine(seed * 7919 + static_cast<std::uint64_t>(my_rank()) + 1);
  GlobalArray<T> a = GlobalArray<T>::create(layout.dims, layout.options);
  Reference<T> ref(layout.dims);
  const Coord& dims = layout.dims;
  const int n = dims.size();
  check_distribution(a, mine);
  verify(a, ref, mine, "fresh (zero) array");
  for (int round = 0; round < 6; ++round) {
    // One writer, a different way each round; every rank replays the write on its reference.
    const int writer = round % nranks();
    const bool me = writer == my_rank();
    switch (round) {
      case 0: case 1: {
        const Patch p = random_patch(shared, dims);
        const auto buf = random_values<T>(shared, p.elements());
        if (me) {
          if (round == 0) a.put(p.lo, p.hi, buf.data());
          else { NbHandle h = a.put_nb(p.lo, p.hi, buf.data()); h.wait(); }
        }
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) { ref.at(g) = buf[static_cast<std::size_t>(pos)]; });
        break;
      }
      case 2: {
        const Patch p = random_patch(shared, dims);
        const Padded pd = padded(p.extents(), 3);
        const auto buf = random_values<T>(shared, pd.size);
        if (me) a.put(p.lo, p.hi, buf.data(), pd.ld);
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index) {
          ref.at(g) = buf[static_cast<std::size_t>(buffer_pos(g, p.lo, pd.stride))];
        });
        break;
      }
      case 3: {
        const Patch p = random_patch(shared, dims);
        const Coord skip = random_skip(shared, n);
        const auto buf = random_values<T>(shared, Patch{Coord::filled(n, 0), extents_skip(p, skip)}.elements());
        if (me) a.put_strided(p.lo, p.hi, skip, buf.data());
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) { ref.at(g) = buf[static_cast<std::size_t>(pos)]; }, &skip);
        break;
      }
      case 4: {
        const Patch p = random_periodic(shared, dims, 1);
        const auto buf = random_values<T>(shared, p.elements());
        if (me) a.periodic_put(p.lo, p.hi, buf.data());
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) { ref.at(ref.wrap(g)) = buf[static_cast<std::size_t>(pos)]; });
        break;
      }
      default: {
        const auto subs = random_elements(shared, dims, 25, true);
        const auto buf = random_values<T>(shared, static_cast<Index>(subs.size()));
        if (me) a.scatter(subs, buf.data());
        for (std::size_t i = 0; i < subs.size(); ++i) ref.at(subs[i]) = buf[i];
        break;
      }
    }
    a.sync();
    verify(a, ref, mine, "after write round " + std::to_string(round));

    // Every rank accumulates the same data; the reference adds it once per rank.
    const T scale = value<T>(round % 2 ? 3 : -2);
    const T times = T(static_cast<float>(nranks()));  // real: once per rank
    switch (round) {
      case 0: case 1: case 2: {
        const Patch p = random_patch(shared, dims);
        const auto buf = random_values<T>(shared, p.elements());
        if (round == 0) a.acc(p.lo, p.hi, buf.data(), scale);
        else if (round == 1) { NbHandle h = a.acc_nb(p.lo, p.hi, buf.data(), scale); h.wait(); }
        else {
          // Through a padded buffer: repack.
          const Padded pd = padded(p.extents(), 1);
          std::vector<T> pb(static_cast<std::size_t>(std::max<Index>(pd.size, 0)));
          Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) {
            pb[static_cast<std::size_t>(buffer_pos(g, p.lo, pd.stride))] = buf[static_cast<std::size_t>(pos)];
          });
          a.acc(p.lo, p.hi, pb.data(), scale, pd.ld);
        }
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) { ref.at(g) += times * scale * buf[static_cast<std::size_t>(pos)]; });
        break;
      }
      case 3: {
        const Patch p = random_patch(shared, dims);
        const Coord skip = random_skip(shared, n);
        const auto buf = random_values<T>(shared, Patch{Coord::filled(n, 0), extents_skip(p, skip)}.elements());
        a.acc_strided(p.lo, p.hi, skip, buf.data(), scale);
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) { ref.at(g) += times * scale * buf[static_cast<std::size_t>(pos)]; }, &skip);
        break;
      }
      case 4: {
        const Patch p = random_periodic(shared, dims, 2);
        const auto buf = random_values<T>(shared, p.elements());
        a.periodic_acc(p.lo, p.hi, buf.data(), scale);
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index pos) { ref.at(ref.wrap(g)) += times * scale * buf[static_cast<std::size_t>(pos)]; });
        break;
      }
      default: {
        const auto subs = random_elements(shared, dims, 25, false);  // repeats accumulate twice
        const auto buf = random_values<T>(shared, static_cast<Index>(subs.size()));
        a.scatter_acc(subs, buf.data(), scale);
        for (std::size_t i = 0; i < subs.size(); ++i) ref.at(subs[i]) += times * scale * buf[i];
        break;
      }
    }
    a.sync();
    verify(a, ref, mine, "after accumulate round " + std::to_string(round));
  }
  // Twice the extent long in every dimension from -1, once per array (2^n times its elements, in
  // 3^n pieces a block): GA's ghosts.F reads a block with its ghost frame this way on one process.
  Patch twice{Coord::filled(n, -1), dims};
  for (int d = 0; d < n; ++d) twice.hi[d] = 2 * dims[d] - 1;
  verify_periodic_get(a, ref, twice);
  a.destroy();
}

template <class T>
class Patches : public ::testing::Test {};
TYPED_TEST_SUITE(Patches, Types);

TYPED_TEST(Patches, RandomShapesAndDistributions) {
  const std::uint64_t base = armada::test::test_seed(1000);
  SEED_TRACE(base);
  std::uint64_t seed = base + static_cast<std::uint64_t>(type_of<TypeParam>()) * 100;
  for (int ndim = 1; ndim <= max_ndim; ++ndim) {
    // Two of the one-block kinds and a block-cyclic one, turn about.
    const int t = static_cast<int>(type_of<TypeParam>());
    for (int kind : {ndim % 4, (ndim + 1 + t) % 4, 4 + (ndim + t) % 3}) {
      std::mt19937_64 rng(++seed);
      const Layout layout = random_layout(rng, nranks(), ndim, kind);
      exercise<TypeParam>(layout, seed);
    }
  }
}

// Patches spanning many owners of a 2-D array with the default distribution, and a patch that
// covers exactly one owner's block (the single-owner path).
TYPED_TEST(Patches, WholeBlocksAndSpans) {
  using T = TypeParam;
  ArrayOptions o;
  o.name = "spans";
  auto a = GlobalArray<T>::create({37, 41}, o);
  Reference<T> ref(a.dims());
  std::mt19937_64 shared(77);
  if (my_rank() == 0) {
    for (int r = 0; r < nranks(); ++r) {
      const Patch own = a.owned(r);
      const auto buf = random_values<T>(shared, own.elements());
      a.put(own.lo, own.hi, buf.data());
      Reference<T>::each(own.lo, own.hi, [&](const Coord& g, Index pos) { ref.at(g) = buf[static_cast<std::size_t>(pos)]; });
    }
  }
  rma::broadcast(ref.v.data(), ref.v.size() * sizeof(T), 0);
  a.sync();
  std::mt19937_64 mine(5 + static_cast<std::uint64_t>(my_rank()));
  verify(a, ref, mine, "blocks written by rank 0");
  a.destroy();
}

}  // namespace
}  // namespace armada::arrays::test
