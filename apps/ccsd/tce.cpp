#include "tce.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "kernels.hpp"

namespace armada::apps::ccsd {

namespace {

/// One TCE task: a pair of each of P_g, Q_g and K_g.
struct TceTask {
  const PairSpace::Pair* p = nullptr;  ///< A's free letters (rows of the product)
  const PairSpace::Pair* q = nullptr;  ///< B's free letters (columns)
  const PairSpace::Pair* k = nullptr;  ///< the contracted letters
};

/// The task list of a term, numbered without being stored: first_[g] is sector g's first task.
class TceTasks {
 public:
  explicit TceTasks(const TermPlan& plan) : plan_(plan) {
    std::int64_t total = 0;
    for (std::size_t g = 0; g < plan.K.size(); ++g) {
      first_.push_back(total);
      total += size(plan.P[g]) * size(plan.Q[g]) * size(plan.K[g]);
    }
    first_.push_back(total);
  }
  std::int64_t count() const { return first_.back(); }

  TceTask operator[](std::int64_t i) const {
    // The sector: the last whose first task is <= i (empty sectors share their first with the next).
    const auto g = static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), i) - first_.begin() - 1);
    const auto& P = plan_.P[g].pairs;
    const auto& Q = plan_.Q[g].pairs;
    const auto& K = plan_.K[g].pairs;
    std::int64_t r = i - first_[g];
    const auto k = static_cast<std::size_t>(r % size(plan_.K[g]));
    r /= size(plan_.K[g]);
    const auto q = static_cast<std::size_t>(r % size(plan_.Q[g]));
    const auto p = static_cast<std::size_t>(r / size(plan_.Q[g]));
    return {&P[p], &Q[q], &K[k]};
  }

 private:
  static std::int64_t size(const PairSpace& s) { return static_cast<std::int64_t>(s.pairs.size()); }
  const TermPlan& plan_;
  std::vector<std::int64_t> first_;
};

/// One rank's work on one term's TCE tasks, with its private buffers.
class TceRunner {
 public:
  TceRunner(TileStore& store, const Tensors& tensors, const TermPlan& plan)
      : store_(store), tensors_(tensors), plan_(plan), spec_(plan.spec()) {}

  void run(const TceTask& t) {
    LetterTiles lt;
    lt.set(plan_.layout.a_free, *t.p);
    lt.set(spec_.contracted, *t.k);
    lt.set(plan_.layout.b_free, *t.q);
    const std::int64_t m = t.p->size, n = t.q->size, k = t.k->size;
    // A as the m x k matrix (free, contracted), B as the k x n matrix (contracted, free).
    const double* a = fetch(spec_.a, lt.tuple(spec_.a_indices), a_, plan_.layout.a_identity, plan_.layout.a_perm, k);
    const double* b = fetch(spec_.b, lt.tuple(spec_.b_indices), b_, plan_.layout.b_identity, plan_.layout.b_perm, n);
    product_.resize(static_cast<std::size_t>(m * n));
    dgemm({m, n, k, k, n, n}, a, b, product_.data(), /*accumulate=*/false);

    const TiledTensor& R = tensors_[TensorId::R];
    const TileTuple r = lt.tuple("abij");
    const Extents r_ext = R.extents(r);
    Extents product{};  // R block axis d is product axis out_perm[d]
    for (std::size_t d = 0; d < 4; ++d) product[static_cast<std::size_t>(plan_.layout.out_perm[d])] = r_ext[d];
    out_.resize(product_.size());
    matrix_to_block(product_.data(), n, product, plan_.layout.out_perm, out_.data());
    store_.acc_nb(0, TensorId::R, R.offset(r), m * n, out_.data());
    store_.wait(0);  // TCE's accumulate is blocking
    flops_ += 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  }
  double bytes() const { return bytes_; }
  double flops() const { return flops_; }

 private:
  /// A block and its matrix layout.
  struct Operand {
    std::vector<double> block, matrix;
  };

  /// Gets block `tuple` of tensor `id` (blocking) and returns it as a matrix with leading
  /// dimension ld: the block itself when its storage order is the matrix's, else permuted.
  const double* fetch(TensorId id, const TileTuple& tuple, Operand& into, bool identity, const Perm& perm, std::int64_t ld) {
    const TiledTensor& tensor = tensors_[id];
    const std::int64_t offset = tensor.offset(tuple);
    if (offset < 0) throw std::logic_error("armada-ccsd: a TCE task reads a block that is zero by symmetry");
    const Extents e = tensor.extents(tuple);
    const std::int64_t n = e[0] * e[1] * e[2] * e[3];
    into.block.resize(static_cast<std::size_t>(n));
    store_.get(id, offset, n, into.block.data());
    bytes_ += 8.0 * static_cast<double>(n);
    if (identity) return into.block.data();
    into.matrix.resize(into.block.size());
    block_to_matrix(into.block.data(), e, perm, into.matrix.data(), ld);
    return into.matrix.data();
  }

  TileStore& store_;
  const Tensors& tensors_;
  const TermPlan& plan_;
  const TermSpec& spec_;
  Operand a_, b_;
  std::vector<double> product_, out_;
  double bytes_ = 0, flops_ = 0;
};

}  // namespace

std::int64_t tce_task_count(const TermPlan& plan) { return TceTasks(plan).count(); }

TermStats run_tce_term(TileStore& store, const Tensors& tensors, const TermPlan& plan, bool record_executed) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const TceTasks tasks(plan);
  TceRunner runner(store, tensors, plan);
  TermStats stats;
  for (std::int64_t i = store.read_inc(plan.term, 0); i < tasks.count(); i = store.read_inc(plan.term, 0)) {
    runner.run(tasks[i]);
    ++stats.tasks;
    if (record_executed) stats.executed.push_back(i);
  }
  stats.flops = runner.flops();
  stats.bytes = runner.bytes();
  stats.busy = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

}  // namespace armada::apps::ccsd
