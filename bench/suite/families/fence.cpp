// Family "fence": an 8-byte put to each of k targets (ranks 1..k), then completion: fence_all,
// a fence per target, fence_all with nothing outstanding, and MPI_Put + MPI_Win_flush_all.
#include "common/pattern.hpp"
#include "suite/families/common.hpp"

namespace armada::bench::suite {

std::vector<int> fence_targets(int nranks) {
  std::vector<int> ks;
  for (int k = 1; k < nranks - 1; k *= 2) ks.push_back(k);
  ks.push_back(nranks - 1);
  return ks;
}

void family_fence(Pass& p) {
  const Layout& L = p.layout;
  section(p, "fence [" + p.transport + "]: an 8-byte put to each of k targets, then completion "
                   "(us per round; ratio = method / fence_all)");
  const std::vector<int> ks = fence_targets(p.nranks);
  const std::uint64_t seed = 9000;
  std::uint64_t word = pattern_word(0, seed);
  for (int k : ks) {
    p.progress->next("fence " + p.transport + " " + std::to_string(k) + " targets");
    auto slot = [&](int t) { return static_cast<std::byte*>(p.bases[static_cast<std::size_t>(t)]) + L.slots_of(t) + Layout::kFence; };
    for (int t = 1; t <= k; ++t) {
      call(p, t, {Cmd::Fill, Mem::Segment, i64(L.slots_of(t) + Layout::kFence), 8, 0});
      if (p.win.ok()) call(p, t, {Cmd::Fill, Mem::Window, i64(L.slots_of(t) + Layout::kFence), 8, 0});
    }
    std::vector<Contestant> cs;
    cs.emplace_back("fence_all", timed([&] {
                      for (int t = 1; t <= k; ++t) rma::put(&word, slot(t), 8, t);
                      rma::fence_all();
                    }));
    cs.emplace_back("fence_each", timed([&] {
                      for (int t = 1; t <= k; ++t) rma::put(&word, slot(t), 8, t);
                      for (int t = 1; t <= k; ++t) rma::fence(t);
                    }));
    cs.emplace_back("fence_all_idle", timed([&] { rma::fence_all(); }));
    if (p.win.ok())
      cs.emplace_back("mpi_flush_all", timed([&] {
                        for (int t = 1; t <= k; ++t) p.win.put(&word, 8, t, L.slots_of(t) + Layout::kFence);
                        p.win.flush_all();
                      }));
    std::vector<Outcome> out = run_all(p, cs, std::vector<std::string>(cs.size(), "put_fence"));
    for (Outcome& o : out) {
      if (o.method == "fence_all_idle") {
        o.verified = true;  // moves no data
      } else {
        bool ok = true;
        for (int t = 1; t <= k; ++t)
          ok = remote_ok(p, t, {Cmd::Check, o.method == "mpi_flush_all" ? Mem::Window : Mem::Segment,
                                i64(L.slots_of(t) + Layout::kFence), 8, i64(seed), 0, 1},
                         o.method + " to rank " + std::to_string(t)) && ok;
        o.verified = ok;
      }
      add_records(p, "fence", o, 8, 0, 0, k, false);
    }
    const std::string label = "put to " + std::to_string(k) + " target" + (k > 1 ? "s" : "") + " + ";
    row(p, label + "fence_all", 8, Unit::Micros, out[0], nullptr);
    row(p, label + "fence each", 8, Unit::Micros, out[1], &out[0]);
    row(p, "fence_all, nothing outstanding", 8, Unit::Micros, out[2], &out[0]);
    if (out.size() > 3) row(p, label + "MPI_Win_flush_all", 8, Unit::Micros, out[3], &out[0]);
  }
}

}  // namespace armada::bench::suite
