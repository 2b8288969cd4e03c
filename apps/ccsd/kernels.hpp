// The local work of a task: moving blocks between tensor and matrix layouts (with index
// permutations) and the dgemm (OpenBLAS, one thread per rank).
#pragma once

#include <cstdint>

#include "tasks.hpp"

namespace armada::apps::ccsd {

/// Elements per step along each of four axes.
using Strides = std::array<std::int64_t, 4>;

/// Which side of a copy its loops visit in storage order (the other is visited by jumps). The
/// side that comes from memory, cold, should be walked: the hardware prefetcher follows one
/// sequential stream, not a jump per short run; the other side is a panel or product that sits
/// in cache.
enum class Walk { destination, source };

/// dst[x] = src[x] for every x in the 4-index box `ext`, each side addressed by its own
/// strides. Axes that run on into each other on both sides are copied as one (a whole row of a
/// block into a matrix row is one run); the innermost is axis 3 (contiguous in every use here).
void copy4(const double* src, const Strides& src_strides, double* dst, const Strides& dst_strides, const Extents& ext,
           Walk walk = Walk::destination);

/// dst[x] += src[x], as copy4 otherwise.
void add4(const double* src, const Strides& src_strides, double* dst, const Strides& dst_strides, const Extents& ext,
          Walk walk = Walk::destination);

/// dst = src with its four axes permuted: axis d of dst is axis perm[d] of src, whose extents
/// are `ext` (row-major both).
void permute4(const double* src, const Extents& ext, const Perm& perm, double* dst);

/// Writes a stored block (extents `ext`, row-major), permuted by `perm`, as the matrix whose
/// rows are its permuted axes 0,1 and columns its axes 2,3, at dst with leading dimension ld.
/// The block is read in storage order (it comes from memory; Walk).
void block_to_matrix(const double* src, const Extents& ext, const Perm& perm, double* dst, std::int64_t ld);

/// The reverse for a product: the sub-matrix at src (leading dimension ld) whose rows are the
/// product axes 0,1 and columns its axes 2,3 (extents `product`) written as a contiguous block
/// whose axis d is product axis perm[d]; with `add`, added to the block dst holds. The block is
/// written in storage order (R's block comes from memory; the product sits in cache).
void matrix_to_block(const double* src, std::int64_t ld, const Extents& product, const Perm& perm, double* dst,
                     bool add = false);

/// C (m x n, row-major, ldc) = A (m x k, lda) * B (k x n, ldb), or C += A * B with `accumulate`.
void dgemm(const GemmShape& s, const double* a, const double* b, double* c, bool accumulate);

/// Asks OpenBLAS for one thread (every rank is one process on its own core).
void use_one_blas_thread();

}  // namespace armada::apps::ccsd
