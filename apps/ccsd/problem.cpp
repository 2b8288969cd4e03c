#include "problem.hpp"

#include <algorithm>

namespace armada::apps::ccsd {

namespace {
std::string option_error(const char* option, std::int64_t value, const std::string& why) {
  return "armada-ccsd: " + std::string(option) + " " + std::to_string(value) + ": " + why;
}
}  // namespace

void validate(const Settings& s) {
  if (s.occ < 1) throw InputError(option_error("--occ", s.occ, "needs at least 1 occupied orbital"));
  if (s.virt < 1) throw InputError(option_error("--virt", s.virt, "needs at least 1 virtual orbital"));
  if (s.tile < 1) throw InputError(option_error("--tile", s.tile, "a tile holds at least 1 orbital"));
  if (s.tile > s.occ)
    throw InputError(option_error("--tile", s.tile, "larger than the occupied space (--occ " + std::to_string(s.occ) + ")"));
  if (s.tile > s.virt)
    throw InputError(option_error("--tile", s.tile, "larger than the virtual space (--virt " + std::to_string(s.virt) + ")"));
  if (s.irreps < 1) throw InputError(option_error("--irreps", s.irreps, "there must be at least one irrep"));
  if (s.irreps != 1 && s.irreps != 2 && s.irreps != 4 && s.irreps != 8)
    throw InputError(option_error("--irreps", s.irreps, "must be 1, 2, 4 or 8 (the abelian point groups, product = XOR)"));
}

int OrbitalSpace::irrep_of(std::int64_t p) const {
  for (const Tile& t : tiles)
    if (p < t.start + t.size) return t.irrep;
  return -1;
}

std::vector<std::int64_t> split_among_irreps(std::int64_t n, int irreps) {
  // Shares proportional to 2N - h, rounded by largest remainder (ties to the lower irrep).
  std::vector<std::int64_t> weight(static_cast<std::size_t>(irreps)), count(weight.size());
  std::int64_t total_weight = 0;
  for (int h = 0; h < irreps; ++h) total_weight += weight[static_cast<std::size_t>(h)] = 2 * irreps - h;
  std::int64_t given = 0;
  std::vector<std::pair<std::int64_t, int>> remainder;
  for (int h = 0; h < irreps; ++h) {
    const auto w = weight[static_cast<std::size_t>(h)];
    count[static_cast<std::size_t>(h)] = n * w / total_weight;
    given += count[static_cast<std::size_t>(h)];
    remainder.emplace_back(-(n * w % total_weight), h);
  }
  std::sort(remainder.begin(), remainder.end());
  for (std::int64_t i = 0; i < n - given; ++i) ++count[static_cast<std::size_t>(remainder[static_cast<std::size_t>(i)].second)];
  return count;
}

OrbitalSpace make_space(std::int64_t n, int irreps, std::int64_t tile) {
  OrbitalSpace s;
  s.orbitals = n;
  s.per_irrep = split_among_irreps(n, irreps);
  std::int64_t start = 0;
  for (int h = 0; h < irreps; ++h) {
    const std::int64_t c = s.per_irrep[static_cast<std::size_t>(h)];
    const std::int64_t ntiles = (c + tile - 1) / tile;
    for (std::int64_t t = 0; t < ntiles; ++t) {
      const std::int64_t size = c / ntiles + (t < c % ntiles ? 1 : 0);
      s.tiles.push_back(Tile{start, size, h});
      start += size;
    }
  }
  return s;
}

Problem::Problem(const Settings& s) : settings(s) {
  validate(s);
  occ = make_space(s.occ, s.irreps, s.tile);
  virt = make_space(s.virt, s.irreps, s.tile);
}

}  // namespace armada::apps::ccsd
