#include "memory.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <vector>

#include "tasks.hpp"
#include "tensor.hpp"

namespace armada::apps::ccsd {

namespace {

/// pair[g] = number of (x in space a, y in space b) with irrep(x) XOR irrep(y) = g, where
/// `a` and `b` count items (orbitals or tiles) per irrep.
std::vector<double> pairs(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> p(a.size(), 0.0);
  for (std::size_t g = 0; g < a.size(); ++g)
    for (std::size_t h = 0; h < a.size(); ++h) p[g] += a[h] * b[h ^ g];
  return p;
}

/// Items of a 4-index tensor whose index pairs (0,1) and (2,3) each multiply to irrep g, summed
/// over g: exactly the symmetric ones.
double symmetric_items(const std::vector<double>& first_pair, const std::vector<double>& second_pair) {
  double n = 0;
  for (std::size_t g = 0; g < first_pair.size(); ++g) n += first_pair[g] * second_pair[g];
  return n;
}

struct PerIrrep {
  std::vector<double> orbitals, tiles;
};

PerIrrep per_irrep(std::int64_t n, int irreps, std::int64_t tile) {
  PerIrrep c;
  for (std::int64_t x : split_among_irreps(n, irreps)) {
    c.orbitals.push_back(static_cast<double>(x));
    c.tiles.push_back(static_cast<double>((x + tile - 1) / tile));
  }
  return c;
}

}  // namespace

MemoryNeed estimate_memory(const Settings& s, int ranks, bool with_reference) {
  const PerIrrep o = per_irrep(s.occ, s.irreps, s.tile), v = per_irrep(s.virt, s.irreps, s.tile);
  const auto vv = pairs(v.orbitals, v.orbitals), oo = pairs(o.orbitals, o.orbitals), ov = pairs(o.orbitals, v.orbitals);
  const std::array<double, tensor_count> elements{
      symmetric_items(vv, vv), symmetric_items(vv, oo), symmetric_items(oo, oo), symmetric_items(ov, ov),
      symmetric_items(vv, oo)};
  MemoryNeed m;
  std::ostringstream text;
  for (std::size_t t = 0; t < elements.size(); ++t) {
    m.tensors += 8 * elements[t];
    text << (t ? ", " : "") << tensor_specs[t].name << " " << human_bytes(8 * elements[t]);
  }
  // Replicated on every rank: the dense block-offset tables and the nonzero block lists of the
  // five tensors, the task lists (about 40 bytes per chunk: pp-ladder (a,b) x (c,d) pairs,
  // hh-ladder (i,j) x (k,l), ring (b,j) x (c,k)), T three times (replica.hpp: Global Arrays' copy
  // and its two arrangements; armada's node copies need about 2/P of T per rank, the check
  // takes the larger) and the task buffers (two input sets and a panel of at most a chunk or
  // a block, the products of a batch and two output buffers of at most a tile pair x all
  // pairs; a batch's extra products are pp-ladder ones, a tile pair x all occupied pairs).
  const double nv = std::accumulate(v.tiles.begin(), v.tiles.end(), 0.0);
  const double no = std::accumulate(o.tiles.begin(), o.tiles.end(), 0.0);
  const double tables = 8 * (nv * nv * nv * nv + 2 * nv * nv * no * no + no * no * no * no + no * nv * nv * no);
  const auto tvv = pairs(v.tiles, v.tiles), too = pairs(o.tiles, o.tiles), tov = pairs(v.tiles, o.tiles);
  double chunks = 0;
  for (std::size_t g = 0; g < tvv.size(); ++g) chunks += tvv[g] * tvv[g] + too[g] * too[g] + tov[g] * tov[g];
  const double O = static_cast<double>(s.occ), V = static_cast<double>(s.virt);
  const double tile_pair = static_cast<double>(s.tile) * static_cast<double>(s.tile);
  const double replicas = 3 * 8 * elements[static_cast<std::size_t>(TensorId::T)];
  const double buffers = 8 * (3 * std::max(static_cast<double>(chunk_elements), tile_pair * tile_pair) +
                              3 * tile_pair * std::max(O, V) * std::max(O, V) + (a_streamed_batch - 1) * tile_pair * O * O);
  m.per_rank = m.tensors / ranks + 2 * tables + 40 * chunks + replicas + buffers;
  if (with_reference) {
    m.reference = 8 * (V * V * V * V + 3 * V * V * O * O + O * O * O * O + O * V * V * O) + 8 * elements[4];
  }
  text << "; tables and task lists " << human_bytes(2 * tables + 40 * chunks) << ", replicas of T "
       << human_bytes(replicas) << " per rank";
  m.breakdown = text.str();
  return m;
}

double available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  double kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;  // unknown: the caller treats 0 as "cannot tell"
}

std::string human_bytes(double bytes) {
  static const char* const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  while (bytes >= 1000 && u < 6) bytes /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
  return buf;
}

}  // namespace armada::apps::ccsd
