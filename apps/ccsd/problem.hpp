// The problem of armada-ccsd: orbital spaces, their irreducible representations and tiles.
//
// o occupied and v virtual orbitals. As in chemistry codes with abelian point-group symmetry,
// every orbital belongs to one irreducible representation (irrep); the irreps form the group
// Z2^k (k = 0..3: 1, 2, 4 or 8 irreps, the abelian point groups C1 ... D2h), their product is
// the bitwise XOR of their numbers and irrep 0 is the totally symmetric one. The orbitals of
// a space are sorted by irrep and split among the irreps unevenly (irrep h gets a share
// proportional to 2N - h, as real molecules populate their irreps unevenly); each irrep's
// orbitals are then cut into tiles of at most `tile` orbitals (nearly equal sizes), so a tile
// never mixes irreps and carries the irrep of its orbitals.
//
// Settings are checked by validate(); a bad one throws InputError naming the option and value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace armada::apps::ccsd {

/// Bad input (an option, a size): the program prints the message and exits with code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What the user chooses.
struct Settings {
  std::int64_t occ = 0;    ///< o: occupied orbitals
  std::int64_t virt = 0;   ///< v: virtual orbitals
  std::int64_t tile = 0;   ///< largest tile, in orbitals
  int irreps = 1;          ///< 1, 2, 4 or 8
};

/// Throws InputError unless the settings describe a problem: o, v, tile >= 1, tile <= o and
/// tile <= v, irreps one of 1, 2, 4, 8.
void validate(const Settings& s);

/// One tile: orbitals [start, start + size) of its space, all of irrep `irrep`.
struct Tile {
  std::int64_t start = 0;
  std::int64_t size = 0;
  int irrep = 0;
};

/// An orbital space (occupied or virtual) cut into tiles.
struct OrbitalSpace {
  std::int64_t orbitals = 0;
  std::vector<std::int64_t> per_irrep;  ///< orbitals of each irrep
  std::vector<Tile> tiles;              ///< in orbital order
  /// Irrep of orbital p (0 <= p < orbitals).
  int irrep_of(std::int64_t p) const;
};

/// How many of n orbitals each of `irreps` irreps gets (uneven shares, summing to n).
std::vector<std::int64_t> split_among_irreps(std::int64_t n, int irreps);

/// The space of n orbitals with the given irreps and tile size.
OrbitalSpace make_space(std::int64_t n, int irreps, std::int64_t tile);

/// A validated problem: the settings and both spaces.
struct Problem {
  Settings settings;
  OrbitalSpace occ, virt;
  explicit Problem(const Settings& s);
};

}  // namespace armada::apps::ccsd
