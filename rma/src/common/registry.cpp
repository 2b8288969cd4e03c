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

Registry::Registry(int world_size) : owned_current_(std::make_unique<const Table>(static_cast<std::size_t>(world_size))) {
  current_.store(owned_current_.get(), std::memory_order_release);
}

Registry::~Registry() = default;  // finalize: no reader is left

void Registry::add(const std::vector<Slice>& slices) {
  std::lock_guard lock(writer_);
  auto next = std::make_unique<Table>(*owned_current_);
  for (const Slice& s : slices) {
    auto& stored = slices_[s.segment];
    stored.push_back(std::make_unique<const Slice>(s));
    auto& v = (*next)[static_cast<std::size_t>(s.owner)];
    v.insert(std::upper_bound(v.begin(), v.end(), s.base, [](std::uintptr_t b, const Entry& x) { return b < x.base; }),
             Entry{s.base, stored.back().get()});
  }
  publish(std::move(next));
}

void Registry::remove(std::int64_t segment) {
  std::lock_guard lock(writer_);
  auto next = std::make_unique<Table>(*owned_current_);
  for (auto& v : *next) std::erase_if(v, [segment](const Entry& e) { return e.slice->segment == segment; });
  // The segment's slices go once no table points to them: retired tables still may, so they
  // wait until every retired table is reclaimed.
  if (auto it = slices_.find(segment); it != slices_.end()) {
    for (auto& slice : it->second) doomed_slices_.push_back(std::move(slice));
    slices_.erase(it);
  }
  publish(std::move(next));
}

void Registry::publish(std::unique_ptr<const Table> next) {
  current_.store(next.get(), std::memory_order_seq_cst);
  retired_.push_back(std::move(owned_current_));
  owned_current_ = std::move(next);
  reclaim();
}

void Registry::reclaim() {
  std::vector<const void*> held;
  for (HazardSlot* s = hazard_slots(); s; s = s->next)
    if (const void* t = s->table.load(std::memory_order_seq_cst)) held.push_back(t);
  std::erase_if(retired_, [&](const std::unique_ptr<const Table>& t) {
    return std::find(held.begin(), held.end(), t.get()) == held.end();
  });
  if (retired_.empty()) doomed_slices_.clear();  // only the current table is left
}

std::size_t Registry::live_tables() const {
  std::lock_guard lock(writer_);
  return retired_.size() + 1 + doomed_slices_.size();
}

}  // namespace armada::rma::detail
