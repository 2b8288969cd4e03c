#include "common/registry.hpp"

#include <algorithm>

namespace armada::rma::detail {

namespace {

std::atomic<HazardSlot*> g_slots{nullptr};

// Takes a free slot, or adds one to the list; releases it when the thread exits.
struct ThreadSlot {
  HazardSlot* slot = nullptr;
  ThreadSlot() {
    for (HazardSlot* s = g_slots.load(std::memory_order_acquire); s; s = s->next) {
      bool expected = false;
      if (s->taken.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
        slot = s;
        return;
      }
    }
    slot = new HazardSlot;  // never freed: writers may be scanning the list at any time
    slot->taken.store(true, std::memory_order_relaxed);
    HazardSlot* head = g_slots.load(std::memory_order_relaxed);
    do {
      slot->next = head;
    } while (!g_slots.compare_exchange_weak(head, slot, std::memory_order_release, std::memory_order_relaxed));
  }
  ~ThreadSlot() {
    slot->table.store(nullptr, std::memory_order_release);
    slot->taken.store(false, std::memory_order_release);
  }
};

}  // namespace

HazardSlot& hazard_slot() {
  thread_local ThreadSlot mine;
  return *mine.slot;
}

HazardSlot* hazard_slots() { return g_slots.load(std::memory_order_acquire); }

Registry::Registry(int world_size)
    : rows_(std::make_unique<std::atomic<const Row*>[]>(static_cast<std::size_t>(world_size))), world_size_(world_size) {
  for (int r = 0; r < world_size; ++r) rows_[static_cast<std::size_t>(r)].store(nullptr, std::memory_order_relaxed);
}

Registry::~Registry() {  // finalize: no reader is left
  for (int r = 0; r < world_size_; ++r) delete rows_[static_cast<std::size_t>(r)].load(std::memory_order_relaxed);
}

void Registry::add(const std::vector<Slice>& slices) {
  if (slices.empty()) return;
  std::lock_guard lock(writer_);
  // One array per segment: 64 B a member and no allocation of its own (a Slice each was 96 B).
  std::vector<Slice>& stored = slices_[slices.front().segment];
  stored = slices;
  for (const Slice& s : stored) {
    const Row* old = rows_[static_cast<std::size_t>(s.owner)].load(std::memory_order_relaxed);
    auto next = std::make_unique<Row>();
    next->reserve((old ? old->size() : 0) + 1);  // exactly: rows are never grown in place
    if (old) next->assign(old->begin(), old->end());
    copied_ += next->size();
    next->insert(std::upper_bound(next->begin(), next->end(), s.base,
                                  [](std::uintptr_t b, const Entry& x) { return b < x.base; }),
                 Entry{s.base, &s});
    publish(s.owner, std::move(next));
  }
  reclaim();
}

void Registry::remove(std::int64_t segment) {
  std::lock_guard lock(writer_);
  auto it = slices_.find(segment);
  if (it == slices_.end()) return;
  for (const Slice& s : it->second) {
    const Row* old = rows_[static_cast<std::size_t>(s.owner)].load(std::memory_order_relaxed);
    if (!old) continue;
    auto next = std::make_unique<Row>(*old);
    copied_ += next->size();
    std::erase_if(*next, [&s](const Entry& e) { return e.slice == &s; });
    publish(s.owner, next->empty() ? nullptr : std::move(next));
  }
  // The segment's slices go once no row points to them: retired rows still may, so they wait
  // until every retired row is reclaimed.
  doomed_slices_.push_back(std::move(it->second));  // the move keeps the slices' addresses
  slices_.erase(it);
  reclaim();
}

void Registry::publish(int rank, std::unique_ptr<const Row> next) {
  const Row* old = rows_[static_cast<std::size_t>(rank)].exchange(next.release(), std::memory_order_seq_cst);
  if (old) retired_.emplace_back(old);
}

void Registry::reclaim() {
  std::vector<const void*> held;
  for (HazardSlot* s = hazard_slots(); s; s = s->next)
    if (const void* t = s->table.load(std::memory_order_seq_cst)) held.push_back(t);
  std::erase_if(retired_, [&](const std::unique_ptr<const Row>& t) {
    return std::find(held.begin(), held.end(), t.get()) == held.end();
  });
  if (retired_.empty()) doomed_slices_.clear();  // only current rows are left
}

std::size_t Registry::live_tables() const {
  std::lock_guard lock(writer_);
  return retired_.size() + 1 + doomed_slices_.size();
}

std::size_t Registry::entries_copied() const {
  std::lock_guard lock(writer_);
  return copied_;
}

}  // namespace armada::rma::detail
