#include "ga_store.hpp"

#include <ga.h>
#include <macdecls.h>

#include <array>
#include <stdexcept>
#include <string>

namespace armada::apps::ccsd {

void ga_start() {
  GA_Initialize();
  MA_init(C_DBL, 1 << 20, 1 << 20);
}

void ga_stop() { GA_Terminate(); }

namespace {

class GaStore final : public TileStore {
 public:
  GaStore() {
    int64_t dims[1] = {term_count * GA_Nnodes()}, block[1] = {1}, map[1] = {0};  // one block: rank 0 owns the counters
    counters_ = NGA_Create_irreg64(C_LONG, 1, dims, const_cast<char*>("ccsd counters"), block, map);
    if (!counters_) throw std::runtime_error("armada-ccsd: NGA_Create_irreg64 failed for the counters");
  }
  ~GaStore() override {
    destroy_all();
    GA_Destroy(counters_);
  }
  const char* name() const override { return "ga"; }

  void create(TensorId id, const std::vector<std::int64_t>& splits) override {
    // GA's irregular map wants strictly increasing block starts: drop empty pieces.
    std::vector<int64_t> map;
    for (std::size_t r = 0; r + 1 < splits.size(); ++r)
      if (splits[r] < splits[r + 1]) map.push_back(splits[r]);
    int64_t dims[1] = {splits.back()}, block[1] = {static_cast<int64_t>(map.size())};
    const int g = NGA_Create_irreg64(C_DBL, 1, dims, const_cast<char*>(spec_of(id).name), block, map.data());
    if (!g) throw std::runtime_error(std::string("armada-ccsd: NGA_Create_irreg64 failed for ") + spec_of(id).name);
    handle(id) = g;
  }
  std::span<double> local(TensorId id, std::int64_t& first) override {
    int64_t lo[1], hi[1], ld[1];
    NGA_Distribution64(handle(id), GA_Nodeid(), lo, hi);
    first = lo[0];
    if (lo[0] < 0 || hi[0] < lo[0]) {
      first = 0;
      return {};
    }
    double* p = nullptr;
    NGA_Access64(handle(id), lo, hi, &p, ld);
    accessed_[static_cast<std::size_t>(id)] = true;
    return {p, static_cast<std::size_t>(hi[0] - lo[0] + 1)};
  }
  void release_local(TensorId id, bool updated) override {
    if (!accessed_[static_cast<std::size_t>(id)]) return;
    int64_t lo[1], hi[1];
    NGA_Distribution64(handle(id), GA_Nodeid(), lo, hi);
    if (updated)
      NGA_Release_update64(handle(id), lo, hi);
    else
      NGA_Release64(handle(id), lo, hi);
    accessed_[static_cast<std::size_t>(id)] = false;
  }
  void get_nb(int slot, TensorId id, std::int64_t lo, std::int64_t n, double* buf) override {
    int64_t l[1] = {lo}, h[1] = {lo + n - 1};
    NGA_NbGet64(handle(id), l, h, buf, nullptr, &new_handle(slot));
  }
  void acc_nb(int slot, TensorId id, std::int64_t lo, std::int64_t n, const double* buf) override {
    int64_t l[1] = {lo}, h[1] = {lo + n - 1};
    double one = 1.0;
    NGA_NbAcc64(handle(id), l, h, const_cast<double*>(buf), nullptr, &one, &new_handle(slot));
  }
  void wait(int slot) override {
    auto& s = slots_[static_cast<std::size_t>(slot)];
    for (auto& h : s) NGA_NbWait(&h);
    s.clear();
  }
  void get(TensorId id, std::int64_t lo, std::int64_t n, double* buf) override {
    int64_t l[1] = {lo}, h[1] = {lo + n - 1};
    NGA_Get64(handle(id), l, h, buf, nullptr);
  }
  void reset_counters() override {
    GA_Zero(counters_);
    GA_Sync();
  }
  long read_inc(Term term, int list) override {
    int64_t at[1] = {static_cast<int64_t>(term) * GA_Nnodes() + list};
    return NGA_Read_inc64(counters_, at, 1);
  }
  void sync() override { GA_Sync(); }
  void destroy_all() override {
    for (int& g : handles_)
      if (g) GA_Destroy(g), g = 0;
  }

 private:
  int& handle(TensorId id) { return handles_[static_cast<std::size_t>(id)]; }
  ga_nbhdl_t& new_handle(int slot) {
    auto& s = slots_[static_cast<std::size_t>(slot)];
    s.emplace_back();
    return s.back();
  }
  int counters_ = 0;
  std::array<int, tensor_count> handles_{};
  std::array<bool, tensor_count> accessed_{};
  // A ga_nbhdl_t is a value (an index into GA's own table): the vectors may move them.
  std::array<std::vector<ga_nbhdl_t>, slot_count> slots_;
};

}  // namespace

std::unique_ptr<TileStore> make_ga_store() { return std::make_unique<GaStore>(); }

}  // namespace armada::apps::ccsd
