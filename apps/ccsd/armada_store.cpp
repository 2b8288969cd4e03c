#include "armada_store.hpp"

#include <array>

#include "armada/arrays/arrays.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

namespace {

namespace arrays = armada::arrays;

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
  std::vector<InPlace> in_place(TensorId id) override {
    std::vector<InPlace> parts;
    for (int r = 0; r < world_size(); ++r) {
      auto view = array(id).access_block(r);  // null unless this process maps rank r's block
      if (view.data) parts.push_back({view.lo[0], {view.data, static_cast<std::size_t>(view.size())}});
    }
    return parts;
  }
  void release_in_place(TensorId id) override {
    for (int r = 0; r < world_size(); ++r) array(id).release();
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
