// Family "aggregate": 1000 doubles put to scattered slots of 1 MiB, each method followed by a
// fence: individual puts, an Aggregate, put_vector in random and in ascending order, MPI_Put with
// one flush, and the same stores done locally (the floor a transport cannot beat).
#include <algorithm>
#include <cstring>
#include <numeric>

#include "common/pattern.hpp"
#include "suite/families/common.hpp"

namespace armada::bench::suite {

namespace {

constexpr std::size_t K = 1000;
constexpr std::uint64_t kSeed = 7000;

/// Where each method's slots are: method m < 3 in C + m*region, the MPI window's in C + 3*region,
/// the ascending vector's in A (the region of every other family is filled before it is used).
std::size_t region_of(const Layout& L, const std::string& method, std::size_t region) {
  if (method == "individual") return L.c();
  if (method == "aggregate") return L.c() + region;
  if (method == "vector") return L.c() + 2 * region;
  if (method == "vector_sorted") return L.a();
  return L.c() + 3 * region;  // mpi_put_flush_once
}

/// I/O vectors: source word k to slot k of the region at `base`, in the order `order`.
rma::IoSet vectors(Pass& p, std::byte* base, const std::vector<std::size_t>& slots, const std::vector<std::size_t>& order,
                   std::vector<void*>& src, std::vector<void*>& dst) {
  for (std::size_t k : order) {
    src.push_back(p.src + 8 * k);
    dst.push_back(base + slots[k]);
  }
  return rma::IoSet{src, dst, 8};
}

}  // namespace

void family_aggregate(Pass& p) {
  const Layout& L = p.layout;
  const std::size_t region = std::min<std::size_t>(1 * MiB, L.region / 4);
  section(p, "aggregation [" + p.transport + "]: " + std::to_string(K) + " doubles to scattered slots of " +
                   format_bytes(region) + " (us per batch, each + fence; ratio = method / vector)");
  p.progress->next("aggregate " + p.transport);
  const auto slots = scatter_offsets(K, region);
  std::vector<std::size_t> random(K), ascending(K);
  std::iota(random.begin(), random.end(), std::size_t{0});
  ascending = random;
  std::sort(ascending.begin(), ascending.end(), [&](std::size_t a, std::size_t b) { return slots[a] < slots[b]; });
  fill_pattern(p.src, 8 * K, kSeed);
  for (const char* m : {"individual", "aggregate", "vector", "vector_sorted"})
    call(p, T, {Cmd::Fill, Mem::Segment, i64(region_of(L, m, region)), i64(region), 0});
  if (p.win.ok()) call(p, T, {Cmd::Fill, Mem::Window, i64(region_of(L, "mpi", region)), i64(region), 0});
  std::vector<void*> vs, vd, ss, sd;
  const rma::IoSet set = vectors(p, p.seg + region_of(L, "vector", region), slots, random, vs, vd);
  const rma::IoSet sorted = vectors(p, p.seg + region_of(L, "vector_sorted", region), slots, ascending, ss, sd);
  std::byte* const C = p.seg + L.c();

  std::vector<Contestant> cs;
  cs.emplace_back("individual", timed([&] {
                    for (std::size_t k = 0; k < K; ++k) rma::put(p.src + 8 * k, C + slots[k], 8, T);
                    rma::fence(T);
                  }));
  cs.emplace_back("aggregate", timed([&] {
                    rma::Aggregate agg(T);
                    for (std::size_t k = 0; k < K; ++k) agg.put(p.src + 8 * k, C + region + slots[k], 8);
                    agg.wait();
                    rma::fence(T);
                  }));
  cs.emplace_back("vector", timed([&] {
                    rma::put_vector(std::span<const rma::IoSet>(&set, 1), T);
                    rma::fence(T);
                  }));
  cs.emplace_back("vector_sorted", timed([&] {
                    rma::put_vector(std::span<const rma::IoSet>(&sorted, 1), T);
                    rma::fence(T);
                  }));
  cs.emplace_back("local_scatter", timed([&] {
                    for (std::size_t k = 0; k < K; ++k) std::memcpy(p.scratch + slots[k], p.src + 8 * k, 8);
                    clobber(p.scratch);
                  }));
  if (p.win.ok())
    cs.emplace_back("mpi_put_flush_once", timed([&] {
                      for (std::size_t k = 0; k < K; ++k) p.win.put(p.src + 8 * k, 8, T, L.c() + 3 * region + slots[k]);
                      p.win.flush(T);
                    }));
  std::vector<Outcome> out = run_all(p, cs, std::vector<std::string>(cs.size(), "put_scattered"));
  for (Outcome& o : out) {
    const std::string what = "scattered put " + o.method;
    if (o.method == "local_scatter") {
      bool ok = true;
      for (std::size_t k = 0; k < K && ok; ++k) ok = local_check(p, what, check_pattern(p.scratch + slots[k], 8, kSeed, k));
      o.verified = ok;
    } else {
      const Mem mem = is_mpi_baseline(o.method) ? Mem::Window : Mem::Segment;
      o.verified = remote_ok(p, T, {Cmd::CheckScatter, mem, i64(region_of(L, o.method, region)), i64(K), i64(region), i64(kSeed)}, what);
    }
    add_records(p, "aggregate", o, 8 * K, 8, K, 0, false);
  }
  Outcome* vector = find(out, "vector");
  row(p, "1000 x put, fence", 8 * K, Unit::Micros, *find(out, "individual"), vector);
  row(p, "Aggregate (1000 puts), wait, fence", 8 * K, Unit::Micros, *find(out, "aggregate"), vector);
  row(p, "put_vector (1000 segs), fence", 8 * K, Unit::Micros, *vector, find(out, "local_scatter"));
  row(p, "put_vector ascending, fence", 8 * K, Unit::Micros, *find(out, "vector_sorted"), vector);
  if (Outcome* mpi = find(out, "mpi_put_flush_once")) row(p, "MPI: 1000 x MPI_Put, flush", 8 * K, Unit::Micros, *mpi, vector);
}

}  // namespace armada::bench::suite
