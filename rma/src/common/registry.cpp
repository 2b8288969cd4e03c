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

// ---- a segment's members, compact ----

namespace {

// The value kept for `member` in a list of (member, value) sorted by member, or null.
template <class T>
const T* find_member(const std::vector<std::pair<std::uint32_t, T>>& list, std::size_t member) {
  auto it = std::lower_bound(list.begin(), list.end(), member,
                             [](const std::pair<std::uint32_t, T>& e, std::size_t m) { return e.first < m; });
  return it != list.end() && it->first == member ? &it->second : nullptr;
}

}  // namespace

Registry::Segment::Segment(const std::vector<Slice>& slices, const std::optional<SymmetricBases>& described)
    : id(slices.front().segment), count(slices.size()) {
  bool identity = true, ascending = true, one_size = true, one_handle = true;
  for (std::size_t i = 0; i < count; ++i) {
    const Slice& s = slices[i];
    identity &= s.owner == static_cast<int>(i);
    ascending &= i == 0 || slices[i - 1].owner < s.owner;
    one_size &= s.size == slices.front().size;
    one_handle &= std::equal(std::begin(s.handle_bytes), std::end(s.handle_bytes), std::begin(slices.front().handle_bytes));
  }
  bool follows = described && described->place && described->place->size() == count;
  for (std::size_t i = 0; follows && i < count; ++i)
    follows = slices[i].base == described->origin + (*described->place)[i] * described->slot;
  if (follows) {
    symmetric = *described;
  } else {
    bases.reserve(count);
    for (const Slice& s : slices) bases.push_back(s.base);
  }
  size = slices.front().size;
  internal = slices.front().internal;
  if (!one_size)
    for (const Slice& s : slices) sizes.push_back(s.size);
  if (!identity) {
    for (const Slice& s : slices) owners.push_back(s.owner);
    if (!ascending) {
      by_owner.resize(count);
      for (std::size_t i = 0; i < count; ++i) by_owner[i] = static_cast<std::uint32_t>(i);
      std::sort(by_owner.begin(), by_owner.end(), [&](std::uint32_t a, std::uint32_t b) { return owners[a] < owners[b]; });
    }
  }
  // A handle every member shares (a window, nothing) once; else only the members' that are set
  // (rdma: this node's keys, the others' fetched on first use).
  std::copy(std::begin(slices.front().handle_bytes), std::end(slices.front().handle_bytes), handle.begin());
  if (!one_handle) {
    handle = {};
    for (std::size_t i = 0; i < count; ++i)
      if (std::any_of(std::begin(slices[i].handle_bytes), std::end(slices[i].handle_bytes), [](std::byte b) { return b != std::byte{0}; })) {
        auto& [member, bytes] = handles.emplace_back();
        member = static_cast<std::uint32_t>(i);
        std::copy(std::begin(slices[i].handle_bytes), std::end(slices[i].handle_bytes), bytes.begin());
      }
  }
  for (std::size_t i = 0; i < count; ++i)
    if (slices[i].local) locals.emplace_back(static_cast<std::uint32_t>(i), slices[i].local);
  locals.shrink_to_fit();  // kept for the segment's life: no room to grow
  handles.shrink_to_fit();
}

long Registry::Segment::member_of(int rank) const noexcept {
  if (owners.empty()) return rank >= 0 && static_cast<std::size_t>(rank) < count ? rank : -1;
  if (by_owner.empty()) {
    auto it = std::lower_bound(owners.begin(), owners.end(), rank);
    return it != owners.end() && *it == rank ? it - owners.begin() : -1;
  }
  auto it = std::lower_bound(by_owner.begin(), by_owner.end(), rank,
                             [&](std::uint32_t m, int r) { return owners[m] < r; });
  return it != by_owner.end() && owners[*it] == rank ? static_cast<long>(*it) : -1;
}

const Slice* Registry::Segment::make(std::size_t member) {
  Slice& s = made.emplace_back();
  s.base = base(member);
  s.size = sizes.empty() ? size : sizes[member];
  s.segment = id;
  s.owner = owner(member);
  s.internal = internal;
  if (const auto* local = find_member(locals, member)) s.local = *local;
  const auto* own = find_member(handles, member);
  const std::array<std::byte, kSliceHandleBytes>& bytes = own ? *own : handle;
  std::copy(bytes.begin(), bytes.end(), s.handle_bytes);
  return &s;
}

std::size_t Registry::Segment::bytes() const noexcept {
  return bases.capacity() * sizeof(std::uintptr_t) + sizes.capacity() * sizeof(std::uint64_t) +
         owners.capacity() * sizeof(int) + by_owner.capacity() * sizeof(std::uint32_t) +
         handles.capacity() * sizeof(handles[0]) + locals.capacity() * sizeof(locals[0]);
}

// ---- the registry ----

Registry::Registry(int world_size)
    : rows_(std::make_unique<std::atomic<const Row*>[]>(static_cast<std::size_t>(world_size))), world_size_(world_size) {
  for (int r = 0; r < world_size; ++r) rows_[static_cast<std::size_t>(r)].store(nullptr, std::memory_order_relaxed);
}

Registry::~Registry() {  // finalize: no reader is left
  for (int r = 0; r < world_size_; ++r) delete rows_[static_cast<std::size_t>(r)].load(std::memory_order_relaxed);
}

const Slice* Registry::find_first(int rank, const void* addr, std::size_t extent) const noexcept {
  {
    std::lock_guard lock(writer_);
    if (!rows_[static_cast<std::size_t>(rank)].load(std::memory_order_relaxed)) {
      auto row = std::make_unique<Row>();
      for (const auto& [id, segment] : segments_)
        if (const long m = segment->member_of(rank); m >= 0) {
          const Slice* s = segment->make(static_cast<std::size_t>(m));
          row->push_back(Entry{s->base, s});
          ++made_;
        }
      std::sort(row->begin(), row->end(), [](const Entry& a, const Entry& b) { return a.base < b.base; });
      copied_ += row->size();
      publish(rank, std::move(row));
    }
  }
  return find(rank, addr, extent);
}

bool Registry::add(const std::vector<Slice>& slices, const std::optional<SymmetricBases>& symmetric) {
  if (slices.empty()) return false;
  std::lock_guard lock(writer_);
  auto stored = std::make_unique<Segment>(slices, symmetric);
  Segment& segment = *stored;
  const bool kept_symmetric = segment.bases.empty();
  segments_[segment.id] = std::move(stored);
  // Ranks already looked up get their slice of the new segment now; the others at their first
  // lookup.
  for (std::size_t m = 0; m < segment.count; ++m) {
    const int owner = segment.owner(m);
    const Row* old = rows_[static_cast<std::size_t>(owner)].load(std::memory_order_relaxed);
    if (!old) continue;  // not looked up yet: its row is built at its first lookup
    const Slice* s = segment.make(m);
    ++made_;
    auto next = std::make_unique<Row>();
    next->reserve(old->size() + 1);  // exactly: rows are never grown in place
    next->assign(old->begin(), old->end());
    copied_ += next->size();
    next->insert(std::upper_bound(next->begin(), next->end(), s->base,
                                  [](std::uintptr_t b, const Entry& x) { return b < x.base; }),
                 Entry{s->base, s});
    publish(owner, std::move(next));
  }
  reclaim();
  return kept_symmetric;
}

void Registry::remove(std::int64_t segment) {
  std::lock_guard lock(writer_);
  auto it = segments_.find(segment);
  if (it == segments_.end()) return;
  Segment& doomed = *it->second;
  for (std::size_t m = 0; m < doomed.count; ++m) {
    const int owner = doomed.owner(m);
    const Row* old = rows_[static_cast<std::size_t>(owner)].load(std::memory_order_relaxed);
    if (!old) continue;
    auto next = std::make_unique<Row>(*old);
    copied_ += next->size();
    std::erase_if(*next, [&](const Entry& e) { return e.slice->segment == segment; });
    publish(owner, std::move(next));
  }
  // The segment's slices go once no row points to them: retired rows still may, so they wait
  // until every retired row is reclaimed.
  doomed_.push_back(std::move(it->second));
  segments_.erase(it);
  reclaim();
}

void Registry::publish(int rank, std::unique_ptr<const Row> next) const {
  const Row* old = rows_[static_cast<std::size_t>(rank)].exchange(next.release(), std::memory_order_seq_cst);
  if (old) retired_.emplace_back(old);
}

void Registry::reclaim() const {
  std::vector<const void*> held;
  for (HazardSlot* s = hazard_slots(); s; s = s->next)
    if (const void* t = s->table.load(std::memory_order_seq_cst)) held.push_back(t);
  std::erase_if(retired_, [&](const std::unique_ptr<const Row>& t) {
    return std::find(held.begin(), held.end(), t.get()) == held.end();
  });
  if (retired_.empty()) doomed_.clear();  // only current rows are left
}

std::size_t Registry::live_tables() const {
  std::lock_guard lock(writer_);
  return retired_.size() + 1 + doomed_.size();
}

std::size_t Registry::entries_copied() const {
  std::lock_guard lock(writer_);
  return copied_;
}

std::size_t Registry::slices_made() const {
  std::lock_guard lock(writer_);
  return made_;
}

std::size_t Registry::member_bytes() const {
  std::lock_guard lock(writer_);
  std::size_t total = 0;
  for (const auto& [id, segment] : segments_) total += segment->bytes();  // not the segment's own fixed part
  return total;
}

}  // namespace armada::rma::detail
