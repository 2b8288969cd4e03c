#include "armada_store.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/runtime.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

namespace {

namespace arrays = armada::arrays;

/// Which of a node's `ranks` ranks holds each array, and where in its part: the largest array
/// first, each to the rank holding the fewest elements so far (the lowest on ties). The same
/// on every node of that size.
struct Spread {
  std::vector<int> holder;                ///< per array: index among the node's ranks
  std::vector<std::int64_t> offset;       ///< per array: first element within its holder's part
  std::vector<std::int64_t> held;         ///< per node rank: elements it holds
};

Spread spread(const std::vector<std::int64_t>& sizes, int ranks) {
  Spread s{std::vector<int>(sizes.size()), std::vector<std::int64_t>(sizes.size()),
           std::vector<std::int64_t>(static_cast<std::size_t>(ranks), 0)};
  std::vector<std::size_t> order(sizes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return sizes[x] > sizes[y]; });
  for (std::size_t i : order) {
    const auto least = std::min_element(s.held.begin(), s.held.end());
    s.holder[i] = static_cast<int>(least - s.held.begin());
    *least += sizes[i];
  }
  std::fill(s.held.begin(), s.held.end(), 0);  // offsets in array order within each part
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    s.offset[i] = s.held[static_cast<std::size_t>(s.holder[i])];
    s.held[static_cast<std::size_t>(s.holder[i])] += sizes[i];
  }
  return s;
}

/// One 1-D GlobalArray: world rank r's block is the part its node's spread gives it. This rank
/// keeps its node's parts accessed (access_block: null where not mapped) until destruction.
class ArmadaNodeCopy final : public NodeCopy {
 public:
  explicit ArmadaNodeCopy(const std::vector<std::int64_t>& sizes) {
    const int me = rma::rank(), world = rma::size();
    std::vector<arrays::Index> starts(static_cast<std::size_t>(world), 0);
    arrays::Index total = 0;
    std::map<std::size_t, Spread> by_node_size;  // one spread per distinct node size
    for (int r = 0; r < world; ++r) {
      const std::span<const int> node = rma::node_ranks(rma::node_of(r));
      const auto k = std::find(node.begin(), node.end(), r) - node.begin();
      auto it = by_node_size.find(node.size());
      if (it == by_node_size.end()) it = by_node_size.emplace(node.size(), spread(sizes, static_cast<int>(node.size()))).first;
      starts[static_cast<std::size_t>(r)] = total;
      total += it->second.held[static_cast<std::size_t>(k)];
    }
    arrays::ArrayOptions opt;
    opt.name = "ccsd node copy";
    opt.block_starts = {starts};
    array_ = arrays::GlobalArray<double>::create({std::max<arrays::Index>(total, 1)}, opt);
    const std::span<const int> node = rma::node_ranks(rma::node_of(me));
    const Spread s = spread(sizes, static_cast<int>(node.size()));
    for (const int r : node) views_.push_back(array_.access_block(r));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto k = static_cast<std::size_t>(s.holder[i]);
      const int r = node[k];
      fills_.push_back(r == me);
      at_.push_back(views_[k].data ? views_[k].data + s.offset[i] : nullptr);
      lo_.push_back(starts[static_cast<std::size_t>(r)] + s.offset[i]);
      n_.push_back(sizes[i]);
    }
  }
  ~ArmadaNodeCopy() override {
    for (std::size_t k = 0; k < views_.size(); ++k) array_.release();
    array_.destroy();
  }
  bool fills(std::size_t i) const override { return fills_[i]; }
  double* at(std::size_t i) override { return at_[i]; }
  void fetch(std::size_t i, double* buf) override {
    if (n_[i] > 0) array_.get({lo_[i]}, {lo_[i] + n_[i]}, buf);
  }

 private:
  arrays::GlobalArray<double> array_;
  std::vector<arrays::LocalView<double>> views_;  ///< this node's ranks' parts
  std::vector<bool> fills_;
  std::vector<double*> at_;
  std::vector<std::int64_t> lo_, n_;
};

class ArmadaStore final : public TileStore {
 public:
  ArmadaStore() {
    // One block: rank 0 owns every counter.
    arrays::ArrayOptions opt;
    opt.name = "ccsd counters";
    opt.block_starts = {{0}};
    counters_ = arrays::GlobalArray<long>::create({term_count * world_size()}, opt);
  }
  ~ArmadaStore() override {
    if (counters_.valid()) counters_.destroy();
  }
  const char* name() const override { return "armada"; }

  void create(TensorId id, const std::vector<std::int64_t>& splits) override {
    arrays::ArrayOptions opt;
    opt.name = spec_of(id).name;
    opt.block_starts = {std::vector<arrays::Index>(splits.begin(), splits.end() - 1)};
    array(id) = arrays::GlobalArray<double>::create({splits.back()}, opt);
  }
  std::span<double> local(TensorId id, std::int64_t& first) override {
    auto view = array(id).access();
    if (view.empty()) {
      first = 0;
      return {};
    }
    first = view.lo[0];
    return {view.data, static_cast<std::size_t>(view.size())};
  }
  void release_local(TensorId id, bool updated) override {
    if (updated)
      array(id).release_update();
    else
      array(id).release();
  }
  std::vector<InPlaceUpdate> in_place_update(TensorId id) override {
    std::vector<InPlaceUpdate> parts;
    for (int r = 0; r < world_size(); ++r) {
      auto view = array(id).access_block(r);  // null unless this process maps rank r's block
      if (view.data) parts.push_back({view.lo[0], {view.data, static_cast<std::size_t>(view.size())}});
    }
    return parts;
  }
  void release_in_place(TensorId id, bool updated) override {
    for (int r = 0; r < world_size(); ++r) updated ? array(id).release_update() : array(id).release();
  }
  std::unique_ptr<NodeCopy> node_copy(const std::vector<std::int64_t>& sizes) override {
    return std::make_unique<ArmadaNodeCopy>(sizes);
  }
  void get_nb(int slot, TensorId id, std::int64_t lo, std::int64_t n, double* buf) override {
    slots_[static_cast<std::size_t>(slot)].push_back(array(id).get_nb({lo}, {lo + n}, buf));
  }
  void acc_nb(int slot, TensorId id, std::int64_t lo, std::int64_t n, const double* buf) override {
    slots_[static_cast<std::size_t>(slot)].push_back(array(id).acc_nb({lo}, {lo + n}, buf, 1.0));
  }
  void wait(int slot) override {
    auto& s = slots_[static_cast<std::size_t>(slot)];
    for (auto& h : s) h.wait();
    s.clear();
  }
  void get(TensorId id, std::int64_t lo, std::int64_t n, double* buf) override { array(id).get({lo}, {lo + n}, buf); }
  void reset_counters() override {
    arrays::zero(counters_);
    counters_.sync();
  }
  long read_inc(Term term, int list) override {
    return counters_.read_inc({static_cast<arrays::Index>(term) * world_size() + list}, 1);
  }
  void sync() override { counters_.sync(); }
  void destroy_all() override {
    for (auto& a : arrays_)
      if (a.valid()) a.destroy();
  }

 private:
  arrays::GlobalArray<double>& array(TensorId id) { return arrays_[static_cast<std::size_t>(id)]; }
  std::array<arrays::GlobalArray<double>, tensor_count> arrays_;
  arrays::GlobalArray<long> counters_;
  std::array<std::vector<arrays::NbHandle>, slot_count> slots_;
};

}  // namespace

std::unique_ptr<TileStore> make_armada_store() { return std::make_unique<ArmadaStore>(); }

}  // namespace armada::apps::ccsd
