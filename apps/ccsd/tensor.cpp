#include "tensor.hpp"

#include <algorithm>

namespace armada::apps::ccsd {

double element_value(TensorId id, std::int64_t p, std::int64_t q, std::int64_t r, std::int64_t s) {
  // Distinct multipliers per position (and per tensor) so that permuted indices give other values.
  const std::int64_t h = (p * 131 + q * 71 + r * 37 + s * 17 + (static_cast<std::int64_t>(id) + 1) * 101) % 1009;
  return 0.5 + static_cast<double>(h) / 1009.0;
}

TiledTensor::TiledTensor(const Problem& problem, TensorId id) : id_(id) {
  for (int d = 0; d < 4; ++d)
    spaces_[static_cast<std::size_t>(d)] = spec().spaces[static_cast<std::size_t>(d)] == Space::occ ? &problem.occ : &problem.virt;
  offsets_.assign(static_cast<std::size_t>(static_cast<std::int64_t>(tiles(0)) * tiles(1) * tiles(2) * tiles(3)), -1);
  TileTuple t{};
  for (t[0] = 0; t[0] < tiles(0); ++t[0])
    for (t[1] = 0; t[1] < tiles(1); ++t[1])
      for (t[2] = 0; t[2] < tiles(2); ++t[2])
        for (t[3] = 0; t[3] < tiles(3); ++t[3]) {
          if (!symmetric(t)) continue;
          const Extents e = extents(t);
          const Block b{t, elements_, e[0] * e[1] * e[2] * e[3]};
          offsets_[static_cast<std::size_t>(linear(t))] = b.offset;
          blocks_.push_back(b);
          elements_ += b.size;
        }
}

bool TiledTensor::symmetric(const TileTuple& t) const noexcept {
  int product = 0;
  for (int d = 0; d < 4; ++d) product ^= space(d).tiles[static_cast<std::size_t>(t[static_cast<std::size_t>(d)])].irrep;
  return product == 0;
}

Extents TiledTensor::extents(const TileTuple& t) const noexcept {
  Extents e{};
  for (int d = 0; d < 4; ++d)
    e[static_cast<std::size_t>(d)] = space(d).tiles[static_cast<std::size_t>(t[static_cast<std::size_t>(d)])].size;
  return e;
}

std::vector<std::int64_t> TiledTensor::splits(int parts) const {
  // Block starts (and the end) are the candidate boundaries; take the one nearest each ideal cut.
  std::vector<std::int64_t> starts;
  starts.reserve(blocks_.size() + 1);
  for (const Block& b : blocks_) starts.push_back(b.offset);
  starts.push_back(elements_);
  std::vector<std::int64_t> cut(static_cast<std::size_t>(parts) + 1, 0);
  cut.back() = elements_;
  for (int k = 1; k < parts; ++k) {
    const std::int64_t ideal = elements_ * k / parts;
    auto it = std::lower_bound(starts.begin(), starts.end(), ideal);
    std::int64_t best = *it;
    if (it != starts.begin() && ideal - *(it - 1) < best - ideal) best = *(it - 1);
    cut[static_cast<std::size_t>(k)] = std::max(best, cut[static_cast<std::size_t>(k) - 1]);
  }
  return cut;
}

void TiledTensor::fill(std::int64_t lo, std::int64_t hi, double* dst) const {
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), lo,
                             [](std::int64_t x, const Block& b) { return x < b.offset + b.size; });
  for (; it != blocks_.end() && it->offset < hi; ++it) fill_block(*it, lo, hi, dst);
}

void TiledTensor::fill_block(const Block& b, std::int64_t lo, std::int64_t hi, double* dst) const {
  const Extents e = extents(b.tiles);
  std::array<std::int64_t, 4> first{};
  for (int d = 0; d < 4; ++d)
    first[static_cast<std::size_t>(d)] = space(d).tiles[static_cast<std::size_t>(b.tiles[static_cast<std::size_t>(d)])].start;
  std::int64_t pos = b.offset;
  for (std::int64_t p = 0; p < e[0]; ++p)
    for (std::int64_t q = 0; q < e[1]; ++q)
      for (std::int64_t r = 0; r < e[2]; ++r)
        for (std::int64_t s = 0; s < e[3]; ++s, ++pos)
          if (pos >= lo && pos < hi)
            dst[pos - lo] = element_value(id_, first[0] + p, first[1] + q, first[2] + r, first[3] + s);
}

Tensors::Tensors(const Problem& p) {
  all.reserve(tensor_count);
  for (const TensorSpec& s : tensor_specs) all.emplace_back(p, s.id);
}

}  // namespace armada::apps::ccsd
