#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace armada::apps::ccsd {

namespace {

std::vector<int> irreps_of(const OrbitalSpace& s) {
  std::vector<int> irrep(static_cast<std::size_t>(s.orbitals));
  for (std::int64_t p = 0; p < s.orbitals; ++p) irrep[static_cast<std::size_t>(p)] = s.irrep_of(p);
  return irrep;
}

}  // namespace

DenseTensor dense_input(const Problem& p, TensorId id) {
  const TensorSpec& spec = spec_of(id);
  std::array<const OrbitalSpace*, 4> sp{};
  std::array<std::vector<int>, 4> irrep;
  DenseTensor t;
  for (std::size_t d = 0; d < 4; ++d) {
    sp[d] = spec.spaces[d] == Space::occ ? &p.occ : &p.virt;
    irrep[d] = irreps_of(*sp[d]);
    t.ext[d] = sp[d]->orbitals;
  }
  t.v.assign(static_cast<std::size_t>(t.ext[0] * t.ext[1] * t.ext[2] * t.ext[3]), 0.0);
  for (std::int64_t a = 0; a < t.ext[0]; ++a)
    for (std::int64_t b = 0; b < t.ext[1]; ++b)
      for (std::int64_t c = 0; c < t.ext[2]; ++c)
        for (std::int64_t d = 0; d < t.ext[3]; ++d) {
          const int product = irrep[0][static_cast<std::size_t>(a)] ^ irrep[1][static_cast<std::size_t>(b)] ^
                              irrep[2][static_cast<std::size_t>(c)] ^ irrep[3][static_cast<std::size_t>(d)];
          if (product == 0) t.at(a, b, c, d) = element_value(id, a, b, c, d);
        }
  return t;
}

DenseTensor reference_residual(const Problem& p) {
  const std::int64_t o = p.occ.orbitals, v = p.virt.orbitals;
  const DenseTensor V = dense_input(p, TensorId::V), T = dense_input(p, TensorId::T),
                    W = dense_input(p, TensorId::W), X = dense_input(p, TensorId::X);
  DenseTensor R;
  R.ext = {v, v, o, o};
  R.v.assign(static_cast<std::size_t>(v * v * o * o), 0.0);
  // pp ladder: R[a,b,i,j] += V[a,b,c,d] T[c,d,i,j]
  for (std::int64_t a = 0; a < v; ++a)
    for (std::int64_t b = 0; b < v; ++b)
      for (std::int64_t c = 0; c < v; ++c)
        for (std::int64_t d = 0; d < v; ++d) {
          const double x = V.at(a, b, c, d);
          if (x == 0) continue;
          for (std::int64_t i = 0; i < o; ++i)
            for (std::int64_t j = 0; j < o; ++j) R.at(a, b, i, j) += x * T.at(c, d, i, j);
        }
  // hh ladder: R[a,b,i,j] += T[a,b,k,l] W[k,l,i,j]
  for (std::int64_t a = 0; a < v; ++a)
    for (std::int64_t b = 0; b < v; ++b)
      for (std::int64_t k = 0; k < o; ++k)
        for (std::int64_t l = 0; l < o; ++l) {
          const double x = T.at(a, b, k, l);
          if (x == 0) continue;
          for (std::int64_t i = 0; i < o; ++i)
            for (std::int64_t j = 0; j < o; ++j) R.at(a, b, i, j) += x * W.at(k, l, i, j);
        }
  // ring: R[a,b,i,j] += T[a,c,i,k] X[k,b,c,j]
  for (std::int64_t a = 0; a < v; ++a)
    for (std::int64_t c = 0; c < v; ++c)
      for (std::int64_t i = 0; i < o; ++i)
        for (std::int64_t k = 0; k < o; ++k) {
          const double x = T.at(a, c, i, k);
          if (x == 0) continue;
          for (std::int64_t b = 0; b < v; ++b)
            for (std::int64_t j = 0; j < o; ++j) R.at(a, b, i, j) += x * X.at(k, b, c, j);
        }
  return R;
}

Comparison compare_residual(const TiledTensor& R, const std::vector<double>& stored, const DenseTensor& want,
                            double tolerance) {
  Comparison c;
  std::vector<char> seen(want.v.size(), 0);
  auto note = [&](std::int64_t a, std::int64_t b, std::int64_t i, std::int64_t j, double got, double ref) {
    ++c.compared;
    const double diff = std::fabs(got - ref);
    const double rel = diff == 0 ? 0 : (ref == 0 ? INFINITY : diff / std::fabs(ref));
    c.max_relative = std::max(c.max_relative, rel);
    if (rel > tolerance && c.mismatches++ == 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "R[%lld,%lld,%lld,%lld] = %.17g, reference %.17g", static_cast<long long>(a),
                    static_cast<long long>(b), static_cast<long long>(i), static_cast<long long>(j), got, ref);
      c.first_mismatch = buf;
    }
  };
  for (const Block& blk : R.blocks()) {
    const Extents e = R.extents(blk.tiles);
    Extents first{};
    for (std::size_t d = 0; d < 4; ++d) first[d] = R.space(static_cast<int>(d)).tiles[static_cast<std::size_t>(blk.tiles[d])].start;
    std::int64_t pos = blk.offset;
    for (std::int64_t a = first[0]; a < first[0] + e[0]; ++a)
      for (std::int64_t b = first[1]; b < first[1] + e[1]; ++b)
        for (std::int64_t i = first[2]; i < first[2] + e[2]; ++i)
          for (std::int64_t j = first[3]; j < first[3] + e[3]; ++j, ++pos) {
            seen[static_cast<std::size_t>(((a * want.ext[1] + b) * want.ext[2] + i) * want.ext[3] + j)] = 1;
            note(a, b, i, j, stored[static_cast<std::size_t>(pos)], want.at(a, b, i, j));
          }
  }
  // Elements of symmetry-zero blocks are not stored: the reference must have zeros there.
  for (std::int64_t a = 0; a < want.ext[0]; ++a)
    for (std::int64_t b = 0; b < want.ext[1]; ++b)
      for (std::int64_t i = 0; i < want.ext[2]; ++i)
        for (std::int64_t j = 0; j < want.ext[3]; ++j)
          if (!seen[static_cast<std::size_t>(((a * want.ext[1] + b) * want.ext[2] + i) * want.ext[3] + j)])
            note(a, b, i, j, 0.0, want.at(a, b, i, j));
  return c;
}

}  // namespace armada::apps::ccsd
