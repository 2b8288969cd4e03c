// NPB's right-hand side v (zran3): the grid is filled with NPB's random numbers in storage order
// (x fastest, then y, then z; point (z, y, x) takes the (x + n y + n^2 z + 1)-th number after
// the seed 314159265, multiplier 5^13), then v = +1 at the 10 largest values, -1 at the 10
// smallest, 0 elsewhere, and its ghost frame is exchanged.
#pragma once

#include <mpi.h>

#include <array>
#include <vector>

#include "halo.hpp"

namespace armada::mg {

/// A charge of v: its global linear index (x + n y + n^2 z) and value (+1 or -1).
struct Charge {
  Index index;
  double value;
};

/// The 10 largest (+1) and 10 smallest (-1) positions of NPB's random field on an n^3 grid.
/// Collective over `comm` (an all-gather of every rank's candidates); each rank generates only
/// its block of `layout`.
std::vector<Charge> zran3_charges(const LevelLayout& layout, MPI_Comm comm);

/// v = the charges (zero elsewhere), ghosts exchanged. Collective.
void zran3(LevelArray& v, const LevelLayout& layout, HaloPlan& plan, Exchange& exchange, MPI_Comm comm);

/// NPB's random number at global point (z, y, x) of an n^3 grid, for `count` consecutive x:
/// out[i] = value at (z, y, x + i).
void zran3_row(Index n, Index z, Index y, Index x, Index count, double* out);

}  // namespace armada::mg
