#include "scheduler.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include "kernels.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

const char* to_string(Schedule s) { return s == Schedule::dynamic ? "dynamic" : "static"; }

namespace {

/// Hands out this rank's task numbers; -1 when there are no more.
class TaskSource {
 public:
  TaskSource(TileStore& store, Term term, std::int64_t count, Schedule schedule)
      : store_(store), term_(term), count_(count), schedule_(schedule), ranks_(world_size()),
        next_static_(world_rank()) {}
  std::int64_t next() {
    std::int64_t t;
    if (schedule_ == Schedule::dynamic) {
      t = store_.read_inc(term_);
    } else {
      t = next_static_;
      next_static_ += ranks_;
    }
    return t < count_ ? t : -1;
  }

 private:
  TileStore& store_;
  Term term_;
  std::int64_t count_;
  Schedule schedule_;
  int ranks_ = 1;
  std::int64_t next_static_ = 0;
};

/// One set of task buffers; slots: its inputs' gets and its product's accumulate.
struct BufferSet {
  std::vector<double> a, b, out;
  int in_slot = 0, out_slot = 0;
};

std::array<BufferSet, 2> make_buffers(const std::vector<Task>& tasks) {
  std::int64_t a = 0, b = 0, r = 0;
  for (const Task& t : tasks) a = std::max(a, t.a_size()), b = std::max(b, t.b_size()), r = std::max(r, t.r_size());
  std::array<BufferSet, 2> sets;
  for (int s = 0; s < 2; ++s) {
    auto& set = sets[static_cast<std::size_t>(s)];
    set.a.resize(static_cast<std::size_t>(a));
    set.b.resize(static_cast<std::size_t>(b));
    set.out.resize(static_cast<std::size_t>(r));
    set.in_slot = s;
    set.out_slot = 2 + s;
  }
  return sets;
}

void fetch(TileStore& store, const TermSpec& spec, const Task& t, BufferSet& set) {
  store.get_nb(set.in_slot, spec.a, t.a_offset, t.a_size(), set.a.data());
  store.get_nb(set.in_slot, spec.b, t.b_offset, t.b_size(), set.b.data());
}

}  // namespace

TermStats run_term(TileStore& store, Term term, const std::vector<Task>& tasks, Schedule schedule,
                   bool record_executed) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const TermSpec& spec = spec_of(term);
  const TermLayout layout = layout_of(spec);
  TaskSource source(store, term, static_cast<std::int64_t>(tasks.size()), schedule);
  auto sets = make_buffers(tasks);
  TaskScratch scratch;
  TermStats stats;

  std::int64_t current = source.next();
  if (current >= 0) fetch(store, spec, tasks[static_cast<std::size_t>(current)], sets[0]);
  std::int64_t upcoming = current >= 0 ? source.next() : -1;
  for (int s = 0; current >= 0; s ^= 1) {
    BufferSet& set = sets[static_cast<std::size_t>(s)];
    if (upcoming >= 0) fetch(store, spec, tasks[static_cast<std::size_t>(upcoming)], sets[static_cast<std::size_t>(s ^ 1)]);
    const Task& t = tasks[static_cast<std::size_t>(current)];
    store.wait(set.in_slot);
    store.wait(set.out_slot);  // this set's previous product has reached R
    multiply(t, layout, set.a.data(), set.b.data(), set.out.data(), scratch);
    store.acc_nb(set.out_slot, TensorId::R, t.r_offset, t.r_size(), set.out.data());
    ++stats.tasks;
    stats.flops += t.flops();
    stats.bytes += 8.0 * static_cast<double>(t.a_size() + t.b_size());
    if (record_executed) stats.executed.push_back(current);
    current = upcoming;
    upcoming = current >= 0 ? source.next() : -1;
  }
  store.wait(sets[0].out_slot);
  store.wait(sets[1].out_slot);
  stats.busy = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

}  // namespace armada::apps::ccsd
