// Tiled, symmetry-blocked tensors: which blocks exist and where each is stored.
//
// A 4-index tensor over (space0, space1, space2, space3) is cut into blocks by the tiles of its
// spaces. A block whose four tile irreps do not multiply (XOR) to the totally symmetric irrep 0
// is zero by symmetry: it has no storage and no task ever touches it. The nonzero blocks are
// stored one after the other in one 1-D distributed array (as coupled-cluster codes store
// them), in lexicographic order of their tile tuples; inside a block the elements are
// row-major over its four orbital indices. offset() maps a tile tuple to its block.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "problem.hpp"

namespace armada::apps::ccsd {

enum class Space { occ, virt };

/// The tensors: inputs V, T, W, X and the residual R.
enum class TensorId { V, T, W, X, R };
inline constexpr int tensor_count = 5;

/// Name and index spaces of each tensor (the one table; index order as in the formulas).
struct TensorSpec {
  TensorId id;
  const char* name;
  std::array<Space, 4> spaces;
};
inline constexpr std::array<TensorSpec, tensor_count> tensor_specs{{
    {TensorId::V, "V", {Space::virt, Space::virt, Space::virt, Space::virt}},  // V[a,b,c,d]
    {TensorId::T, "T", {Space::virt, Space::virt, Space::occ, Space::occ}},    // T[a,b,i,j]
    {TensorId::W, "W", {Space::occ, Space::occ, Space::occ, Space::occ}},      // W[k,l,i,j]
    {TensorId::X, "X", {Space::occ, Space::virt, Space::virt, Space::occ}},    // X[k,b,c,j]
    {TensorId::R, "R", {Space::virt, Space::virt, Space::occ, Space::occ}},    // R[a,b,i,j]
}};
inline const TensorSpec& spec_of(TensorId id) { return tensor_specs[static_cast<std::size_t>(id)]; }

using TileTuple = std::array<int, 4>;
using Extents = std::array<std::int64_t, 4>;

/// The deterministic value of element (p, q, r, s) of tensor `id` (orbital indices in the
/// tensor's spaces), whatever its symmetry: in [0.5, 1.5), positive so that every element of R
/// is a sum of positive terms (relative comparisons are then meaningful), and different under
/// any exchange of indices (so a wrong permutation changes the result).
double element_value(TensorId id, std::int64_t p, std::int64_t q, std::int64_t r, std::int64_t s);

/// One stored (nonzero) block.
struct Block {
  TileTuple tiles;
  std::int64_t offset = 0;  ///< first element in the tensor's storage
  std::int64_t size = 0;    ///< elements
};

class TiledTensor {
 public:
  TiledTensor(const Problem& problem, TensorId id);

  const TensorSpec& spec() const noexcept { return spec_of(id_); }
  const OrbitalSpace& space(int d) const noexcept { return *spaces_[static_cast<std::size_t>(d)]; }
  int tiles(int d) const noexcept { return static_cast<int>(space(d).tiles.size()); }
  /// True when the block's irreps multiply to the totally symmetric irrep.
  bool symmetric(const TileTuple& t) const noexcept;
  /// Storage offset of block `t`, or -1 when it is zero by symmetry.
  std::int64_t offset(const TileTuple& t) const noexcept { return offsets_[static_cast<std::size_t>(linear(t))]; }
  Extents extents(const TileTuple& t) const noexcept;
  const std::vector<Block>& blocks() const noexcept { return blocks_; }
  /// Stored elements (the nonzero blocks).
  std::int64_t elements() const noexcept { return elements_; }

  /// Boundaries of `parts` nearly equal, block-aligned pieces of the storage: parts + 1
  /// nondecreasing values from 0 to elements() (equal values: an empty piece).
  std::vector<std::int64_t> splits(int parts) const;
  /// Writes the elements of storage range [lo, hi) to dst[0 .. hi-lo).
  void fill(std::int64_t lo, std::int64_t hi, double* dst) const;

 private:
  std::int64_t linear(const TileTuple& t) const noexcept {
    return ((static_cast<std::int64_t>(t[0]) * tiles(1) + t[1]) * tiles(2) + t[2]) * tiles(3) + t[3];
  }
  void fill_block(const Block& b, std::int64_t lo, std::int64_t hi, double* dst) const;
  TensorId id_;
  std::array<const OrbitalSpace*, 4> spaces_{};
  std::vector<std::int64_t> offsets_;  // dense over tile tuples, -1: zero block
  std::vector<Block> blocks_;
  std::int64_t elements_ = 0;
};

/// All five tensors of a problem, indexed by TensorId.
struct Tensors {
  explicit Tensors(const Problem& p);
  std::vector<TiledTensor> all;
  const TiledTensor& operator[](TensorId id) const { return all[static_cast<std::size_t>(id)]; }
};

}  // namespace armada::apps::ccsd
