#include "core/registry.hpp"

#include <algorithm>

namespace armada::rma::detail {

Registry::Registry(int world_size) {
  snapshots_.push_back(std::make_unique<const Table>(static_cast<std::size_t>(world_size)));
  current_.store(snapshots_.back().get(), std::memory_order_release);
}

Registry::~Registry() = default;

void Registry::add(const std::vector<Slice>& slices) {
  std::lock_guard lock(writer_);
  auto next = std::make_unique<Table>(*current_.load(std::memory_order_acquire));
  for (const Slice& s : slices) {
    auto& v = (*next)[static_cast<std::size_t>(s.owner)];
    v.insert(std::upper_bound(v.begin(), v.end(), s.base,
                              [](std::uintptr_t b, const Slice& x) { return b < x.base; }),
             s);
  }
  current_.store(next.get(), std::memory_order_release);
  snapshots_.push_back(std::move(next));
}

void Registry::remove(std::int64_t segment) {
  std::lock_guard lock(writer_);
  auto next = std::make_unique<Table>(*current_.load(std::memory_order_acquire));
  for (auto& v : *next)
    std::erase_if(v, [segment](const Slice& s) { return s.segment == segment; });
  current_.store(next.get(), std::memory_order_release);
  snapshots_.push_back(std::move(next));
}

}  // namespace armada::rma::detail
