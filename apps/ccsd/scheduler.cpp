#include "scheduler.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>
#include <utility>

#include "kernels.hpp"
#include "tce.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

const char* to_string(Schedule s) {
  switch (s) {
    case Schedule::dynamic: return "dynamic";
    case Schedule::static_round_robin: return "static";
    case Schedule::locality: return "locality";
    case Schedule::tce: return "tce";
  }
  return "?";
}

const char* to_string(Step s) {
  switch (s) {
    case Step::replica: return "replica";
    case Step::gets: return "gets";
    case Step::wait: return "wait";
    case Step::permute: return "permute";
    case Step::dgemm: return "dgemm";
    case Step::update: return "update";
    case Step::drain: return "drain";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

/// Splits a term's time into Steps: each lap adds the time since the previous one to a step.
class StepClock {
 public:
  StepClock(Clock::time_point start, std::array<double, step_count>& steps) : last_(start), steps_(steps) {}
  void lap(Step s) {
    const Clock::time_point now = Clock::now();
    steps_[static_cast<std::size_t>(s)] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  Clock::time_point last_;
  std::array<double, step_count>& steps_;
};

/// Calls f(contraction pair, storage offset, extents) for each streamed block of a task's chunk.
template <class F>
void for_each_streamed_block(const Tensors& tensors, const TermPlan& plan, const Task& t, const Chunk& c, F&& f) {
  const TermSpec& spec = plan.spec();
  const bool a = plan.a_streamed();
  const TiledTensor& tensor = tensors[a ? spec.a : spec.b];
  LetterTiles lt;
  lt.set(a ? plan.layout.a_free : plan.layout.b_free, plan.task_pairs(t.sector).pairs[static_cast<std::size_t>(t.pair)]);
  for (int k = c.first; k < c.last; ++k) {
    const PairSpace::Pair& kp = plan.K[static_cast<std::size_t>(t.sector)].pairs[static_cast<std::size_t>(k)];
    lt.set(spec.contracted, kp);
    const TileTuple tuple = lt.tuple(a ? spec.a_indices : spec.b_indices);
    const std::int64_t offset = tensor.offset(tuple);
    if (offset < 0) throw std::logic_error("armada-ccsd: a task reads a block that is zero by symmetry");
    f(kp, offset, tensor.extents(tuple));
  }
}

/// The batch numbers of each rank's list for the locality schedule: the batches whose streamed
/// blocks the rank holds the most of (ties to the lower rank), in the list's order.
std::vector<std::vector<std::int64_t>> owner_lists(const Tensors& tensors, const TermPlan& plan, int ranks) {
  const TiledTensor& streamed = tensors[plan.a_streamed() ? plan.spec().a : plan.spec().b];
  const std::vector<std::int64_t> splits = streamed.splits(ranks);
  std::vector<std::vector<std::int64_t>> lists(static_cast<std::size_t>(ranks));
  std::vector<std::int64_t> held(static_cast<std::size_t>(ranks));
  for (std::size_t b = 0; b < plan.batches.size(); ++b) {
    std::fill(held.begin(), held.end(), 0);
    for (int i = plan.batches[b].first; i < plan.batches[b].last; ++i) {
      const Task& t = plan.tasks[static_cast<std::size_t>(i)];
      for (const Chunk& c : t.chunks)
        for_each_streamed_block(tensors, plan, t, c, [&](const PairSpace::Pair&, std::int64_t offset, const Extents& e) {
          const auto owner = std::upper_bound(splits.begin(), splits.end(), offset) - splits.begin() - 1;
          held[static_cast<std::size_t>(owner)] += e[0] * e[1] * e[2] * e[3];
        });
    }
    lists[static_cast<std::size_t>(std::max_element(held.begin(), held.end()) - held.begin())].push_back(static_cast<std::int64_t>(b));
  }
  return lists;
}

/// Hands out this rank's batches (TermPlan::batches) by number; -1 when there are no more.
class BatchSource {
 public:
  BatchSource(TileStore& store, const Tensors& tensors, const TermPlan& plan, Schedule schedule)
      : store_(store), term_(plan.term), count_(static_cast<std::int64_t>(plan.batches.size())), schedule_(schedule),
        rank_(world_rank()), ranks_(world_size()), next_static_(world_rank()) {
    if (schedule == Schedule::locality) lists_ = owner_lists(tensors, plan, ranks_);
  }
  std::int64_t next() {
    switch (schedule_) {
      case Schedule::dynamic: {
        const std::int64_t b = store_.read_inc(term_, 0);
        return b < count_ ? b : -1;
      }
      case Schedule::static_round_robin: {
        const std::int64_t b = next_static_;
        next_static_ += ranks_;
        return b < count_ ? b : -1;
      }
      case Schedule::tce:  // run_term hands these to run_tce_term
      case Schedule::locality:
        for (; visited_ < ranks_; ++visited_) {  // own list first, then the next ranks' lists
          const int list = (rank_ + visited_) % ranks_;
          const auto& batches = lists_[static_cast<std::size_t>(list)];
          if (batches.empty()) continue;
          const std::int64_t i = store_.read_inc(term_, list);
          if (i < static_cast<std::int64_t>(batches.size())) return batches[static_cast<std::size_t>(i)];
        }
        return -1;
    }
    return -1;
  }

 private:
  TileStore& store_;
  Term term_;
  std::int64_t count_;
  Schedule schedule_;
  int rank_ = 0, ranks_ = 1;
  std::int64_t next_static_ = 0;
  std::vector<std::vector<std::int64_t>> lists_;  // locality: batch numbers per owner
  int visited_ = 0;                               // locality: lists exhausted so far
};

/// A chunk of a task: the unit of the pipeline.
struct Position {
  std::int64_t task = -1;
  std::size_t chunk = 0;
  std::size_t member = 0;  ///< the task's place in its batch: which product it multiplies into
  bool last = false;       ///< the task's last chunk
};

/// The order a rank runs its chunks in: batch after batch from the source, each chunk-major
/// (chunk 0 of every member task, then chunk 1, ...); a task with fewer chunks drops out early.
class ChunkOrder {
 public:
  ChunkOrder(BatchSource& source, const TermPlan& plan) : source_(source), plan_(plan) {}
  /// The next chunk; task -1 when the source has no more batches.
  Position next() {
    for (;;) {
      if (member_ == members()) member_ = 0, ++chunk_;
      if (chunk_ >= longest_ && !refill()) return Position{};
      const std::size_t m = member_++;
      const std::int64_t task = batch_.first + static_cast<std::int64_t>(m);
      const std::size_t chunks = plan_.tasks[static_cast<std::size_t>(task)].chunks.size();
      if (chunk_ < chunks) return Position{task, chunk_, m, chunk_ + 1 == chunks};
    }
  }

 private:
  std::size_t members() const { return static_cast<std::size_t>(batch_.last - batch_.first); }
  bool refill() {
    const std::int64_t b = source_.next();
    if (b < 0) return false;
    batch_ = plan_.batches[static_cast<std::size_t>(b)];
    longest_ = chunk_ = member_ = 0;
    for (int t = batch_.first; t < batch_.last; ++t)
      longest_ = std::max(longest_, plan_.tasks[static_cast<std::size_t>(t)].chunks.size());
    return true;
  }

  BatchSource& source_;
  const TermPlan& plan_;
  Batch batch_{};
  std::size_t longest_ = 0, chunk_ = 0, member_ = 0;
};

/// One rank's work on one term: gets of streamed blocks, dgemms against the replicated
/// sector matrices, the product's accumulate into R. Slots: input set s uses slot s, output
/// buffer s slot 2 + s.
class TermRunner {
 public:
  TermRunner(TileStore& store, const Tensors& tensors, const TermPlan& plan, const SectorMatrices& replicated,
             TaskBuffers& buffers)
      : store_(store), tensors_(tensors), plan_(plan), spec_(plan.spec()), replicated_(replicated), buf_(buffers),
        in_place_parts_(store.in_place(streamed())), r_parts_(store.in_place_update(TensorId::R)) {}

  /// Starts the gets of the chunk's streamed blocks into input set `set`; the blocks this rank
  /// reads in place are not copied.
  void fetch(const Position& at, int set) {
    const Task& t = task(at);
    const Chunk& c = t.chunks[at.chunk];
    std::vector<const double*>& sources = sources_[static_cast<std::size_t>(set)];
    double* buffer = buf_.inputs[static_cast<std::size_t>(set)].data();
    sources.clear();
    std::int64_t pos = 0;
    bool none_in_place = true;
    for_each_block(t, c, [&](const PairSpace::Pair&, std::int64_t offset, const Extents& e) {
      const std::int64_t n = e[0] * e[1] * e[2] * e[3];
      if (const double* p = TileStore::find_in_place(in_place_parts_, offset, n)) {
        sources.push_back(p);
        bytes_in_place_ += 8.0 * static_cast<double>(n);
        none_in_place = false;
        return;
      }
      store_.get_nb(set, streamed(), offset, n, buffer + pos);
      sources.push_back(buffer + pos);
      pos += n;
    });
    fetched_whole_[static_cast<std::size_t>(set)] = none_in_place;
    bytes_ += 8.0 * static_cast<double>(pos);
  }

  /// Waits for input set `set` and multiplies the chunk into the task's product.
  void multiply(const Position& at, int set, StepClock& clock) {
    store_.wait(set);
    clock.lap(Step::wait);
    const Task& t = task(at);
    const Chunk& c = t.chunks[at.chunk];
    const double* replicated = replicated_[static_cast<std::size_t>(t.sector)];
    const GemmShape shape = plan_.gemm_of(t, c);
    const bool accumulate = at.chunk > 0;
    double* product = buf_.products[at.member].data();
    if (plan_.a_streamed()) {  // one block, the m x k matrix; B is rows [k0, k0 + k) of B_g
      const double* a = as_matrix(t, c, set, plan_.layout.a_identity, plan_.layout.a_perm);
      clock.lap(Step::permute);
      dgemm(shape, a, replicated + c.k0 * t.n, product, accumulate);
    } else {  // the blocks are rows of the k x n panel; A is columns [k0, k0 + k) of A_g
      const double* b = as_matrix(t, c, set, plan_.layout.b_identity, plan_.layout.b_perm);
      clock.lap(Step::permute);
      dgemm(shape, replicated + c.k0, b, product, accumulate);
    }
    clock.lap(Step::dgemm);
  }

  /// Adds the product of the task at `at` into R: in place where this rank maps R's block, else
  /// written into R's block layout and accumulated (started, completed by a later wait).
  void finish(const Position& at);

  /// Completes the last accumulates and ends the in-place reads and writes.
  void drain() {
    store_.wait(2);
    store_.wait(3);
    store_.release_in_place(streamed(), /*updated=*/false);
    store_.release_in_place(TensorId::R, /*updated=*/true);
  }
  double bytes() const { return bytes_; }
  double bytes_in_place() const { return bytes_in_place_; }
  const Task& task(const Position& at) const { return plan_.tasks[static_cast<std::size_t>(at.task)]; }

 private:
  TensorId streamed() const { return plan_.a_streamed() ? spec_.a : spec_.b; }
  const PairSpace::Pair& pair(const Task& t) const {
    return plan_.task_pairs(t.sector).pairs[static_cast<std::size_t>(t.pair)];
  }

  template <class F>
  void for_each_block(const Task& t, const Chunk& c, F&& f) const {
    for_each_streamed_block(tensors_, plan_, t, c, std::forward<F>(f));
  }

  /// The chunk's blocks (input set `set`) as the dgemm's streamed matrix: where they lie when
  /// that is already its layout (one block, or blocks fetched one after the other, unpermuted),
  /// else copied and permuted into the panel (A: one m x k block; B: blocks as rows of a k x n
  /// panel).
  const double* as_matrix(const Task& t, const Chunk& c, int set, bool identity, const Perm& perm) {
    const std::vector<const double*>& sources = sources_[static_cast<std::size_t>(set)];
    if (identity && sources.size() == 1) return sources.front();
    if (identity && fetched_whole_[static_cast<std::size_t>(set)]) return buf_.inputs[static_cast<std::size_t>(set)].data();
    const std::int64_t ld = plan_.a_streamed() ? c.k : t.n;
    std::size_t i = 0;
    for_each_block(t, c, [&](const PairSpace::Pair& kp, std::int64_t, const Extents& e) {
      const std::int64_t row = plan_.a_streamed() ? 0 : kp.offset - c.k0;
      block_to_matrix(sources[i++], e, perm, buf_.panel.data() + row * ld, ld);
    });
    return buf_.panel.data();
  }

  TileStore& store_;
  const Tensors& tensors_;
  const TermPlan& plan_;
  const TermSpec& spec_;
  const SectorMatrices& replicated_;
  TaskBuffers& buf_;
  std::vector<TileStore::InPlace> in_place_parts_;   ///< the streamed tensor's parts read in place
  std::vector<TileStore::InPlaceUpdate> r_parts_;    ///< R's parts this rank adds into in place
  std::array<std::vector<const double*>, 2> sources_;  ///< per input set: where each block of its chunk is
  std::array<bool, 2> fetched_whole_{};                 ///< per input set: every block fetched, in order
  int next_output_ = 0;
  double bytes_ = 0, bytes_in_place_ = 0;
};

/// One R block of a task's product: where it is in R and in the product.
struct OutBlock {
  std::int64_t r_offset, size;
  std::int64_t row, col;  ///< first row and column in the product
  Extents r_ext;
};

void TermRunner::finish(const Position& at) {
  const Task& t = task(at);
  const std::vector<double>& product_of_task = buf_.products[at.member];
  const TiledTensor& R = tensors_[TensorId::R];
  const auto g = static_cast<std::size_t>(t.sector);
  const bool a = plan_.a_streamed();
  // The product's rows are A's free pairs (only the task's when A is streamed), its columns B's.
  const std::vector<PairSpace::Pair> own{pair(t)};
  const std::vector<PairSpace::Pair>& rows = a ? own : plan_.P[g].pairs;
  const std::vector<PairSpace::Pair>& cols = a ? plan_.Q[g].pairs : own;
  std::vector<OutBlock> blocks;
  LetterTiles lt;
  for (const PairSpace::Pair& r : rows)
    for (const PairSpace::Pair& c : cols) {
      lt.set(plan_.layout.a_free, r);
      lt.set(plan_.layout.b_free, c);
      const TileTuple tuple = lt.tuple("abij");
      const Extents e = R.extents(tuple);
      blocks.push_back({R.offset(tuple), e[0] * e[1] * e[2] * e[3], a ? 0 : r.offset, a ? c.offset : 0, e});
    }
  std::sort(blocks.begin(), blocks.end(), [](const OutBlock& x, const OutBlock& y) { return x.r_offset < y.r_offset; });

  const int slot = 2 + next_output_;
  std::vector<double>& out = buf_.outputs[static_cast<std::size_t>(next_output_)];
  next_output_ ^= 1;
  store_.wait(slot);  // this buffer's previous accumulates are done
  // A block of R this rank maps is added into in place: within a term each R block belongs to
  // one task (pp-ladder R[a,b,*,*], hh-ladder R[*,*,i,j], ring R[*,b,*,j]), so no other rank
  // writes it before the term's closing sync. The others are written into R's layout and
  // accumulated, one accumulate per run of them that follow each other in storage.
  std::int64_t pos = 0, run_start = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const OutBlock& b = blocks[i];
    // R block axis d is product axis out_perm[d]: the product's extents from R's.
    Extents product{};
    for (std::size_t d = 0; d < 4; ++d) product[static_cast<std::size_t>(plan_.layout.out_perm[d])] = b.r_ext[d];
    const double* from = product_of_task.data() + b.row * t.n + b.col;
    if (double* r = TileStore::find_in_place(r_parts_, b.r_offset, b.size)) {
      matrix_to_block(from, t.n, product, plan_.layout.out_perm, r, /*add=*/true);
      continue;
    }
    matrix_to_block(from, t.n, product, plan_.layout.out_perm, out.data() + pos);
    pos += b.size;
    const bool run_ends = i + 1 == blocks.size() || blocks[i + 1].r_offset != b.r_offset + b.size ||
                          TileStore::find_in_place(r_parts_, blocks[i + 1].r_offset, blocks[i + 1].size);
    if (run_ends) {
      const std::int64_t r_lo = blocks[i].r_offset + b.size - (pos - run_start);
      store_.acc_nb(slot, TensorId::R, r_lo, pos - run_start, out.data() + run_start);
      run_start = pos;
    }
  }
}

}  // namespace

TaskBuffers::TaskBuffers(const TermPlans& plans) {
  std::int64_t largest_input = 0, largest_product = 0, largest_batched = 0;
  for (const TermPlan& plan : plans)
    for (const Task& t : plan.tasks) {
      largest_product = std::max(largest_product, t.m * t.n);
      if (plan.a_streamed()) largest_batched = std::max(largest_batched, t.m * t.n);
      const std::int64_t pair_size = plan.task_pairs(t.sector).pairs[static_cast<std::size_t>(t.pair)].size;
      for (const Chunk& c : t.chunks) largest_input = std::max(largest_input, c.k * pair_size);
    }
  for (auto& set : inputs) set.assign(static_cast<std::size_t>(largest_input), 0.0);
  panel.assign(static_cast<std::size_t>(largest_input), 0.0);
  // The first product serves every term; the batch's others only A-streamed terms' tasks.
  products.assign(static_cast<std::size_t>(a_streamed_batch), std::vector<double>(static_cast<std::size_t>(largest_batched), 0.0));
  products[0].assign(static_cast<std::size_t>(largest_product), 0.0);
  for (auto& out : outputs) out.assign(static_cast<std::size_t>(largest_product), 0.0);
}

TermStats run_term(TileStore& store, const Tensors& tensors, const TermPlan& plan, Replicas& replicas,
                   TaskBuffers& buffers, Schedule schedule, bool record_executed) {
  if (schedule == Schedule::tce) return run_tce_term(store, tensors, plan, record_executed);
  const auto start = Clock::now();
  TermStats stats;
  StepClock clock(start, stats.steps);
  const SectorMatrices& replicated = replicas.sectors(store, plan, stats.bytes, stats.bytes_in_place);
  clock.lap(Step::replica);
  TermRunner runner(store, tensors, plan, replicated, buffers);
  BatchSource source(store, tensors, plan, schedule);
  ChunkOrder order(source, plan);

  Position current = order.next();
  if (current.task >= 0) runner.fetch(current, 0);
  for (int s = 0; current.task >= 0; s ^= 1) {
    const Task& t = runner.task(current);
    const Position next = order.next();
    if (next.task >= 0) runner.fetch(next, s ^ 1);
    clock.lap(Step::gets);  // the counter's read_inc for the next batch included
    runner.multiply(current, s, clock);
    if (current.last) {
      runner.finish(current);
      clock.lap(Step::update);
      ++stats.tasks;
      stats.flops += t.flops();
      if (record_executed) stats.executed.push_back(current.task);
    }
    current = next;
  }
  runner.drain();
  clock.lap(Step::drain);
  stats.bytes += runner.bytes();
  stats.bytes_in_place += runner.bytes_in_place();
  stats.busy = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

}  // namespace armada::apps::ccsd
