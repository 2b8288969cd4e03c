// The local work of a task: index permutations and the dgemm (OpenBLAS, one thread per rank).
#pragma once

#include <cstdint>
#include <vector>

#include "tasks.hpp"

namespace armada::apps::ccsd {

/// dst = src with its four axes permuted: axis d of dst is axis perm[d] of src, whose extents
/// are `ext` (row-major both). The innermost loop runs along dst's last axis (contiguous when
/// perm[3] == 3, as in every term here).
void permute4(const double* src, const Extents& ext, const Perm& perm, double* dst);

/// C (m x n, row-major) = A (m x k) * B (k x n), or C += A * B with `accumulate`.
void dgemm(std::int64_t m, std::int64_t n, std::int64_t k, const double* a, const double* b, double* c,
           bool accumulate = false);

/// Asks OpenBLAS for one thread (every rank is one process on its own core).
void use_one_blas_thread();

/// Scratch space for the permuted operands and product of a task.
struct TaskScratch {
  std::vector<double> a, b, product;
};

/// out (R's block order, r_size elements) = the task's product of the blocks in a and b (as
/// stored), permuting where the term's layout needs it.
void multiply(const Task& t, const TermLayout& layout, const double* a, const double* b, double* out,
              TaskScratch& scratch);

}  // namespace armada::apps::ccsd
