// What armada-cg and armada-spmv-bench share around their kernels: the command line (with the
// --json file checked once, on rank 0, for every rank) and the distributed CG matrix.
#pragma once

#include <functional>
#include <vector>

#include "armada/apps/npb_cli.hpp"
#include "armada/arrays/sparse.hpp"
#include "npb_cg.hpp"

namespace armada::apps::cg {

/// parse_npb_command_line on every rank (rank 0 prints), then a --json file that cannot be
/// written is bad input too ("<program>: --json '...': cannot write: ..." on rank 0, exit code
/// 2 everywhere). Collective over the world (after rma::init).
NpbParse parse_cg_command_line(int argc, const char* const* argv, const NpbProgram& program,
                               std::vector<programs::Option> extra = {});

/// The programs' exit codes.
inline constexpr int exit_verified = 0, exit_failed = 1, exit_bad_input = 2;

/// A program's main: starts rma (and MPI), parses the command line as above (returning its exit
/// code when it says stop), runs `body` on every rank and returns the exit code rank 0's body
/// returned, on every rank. An exception prints "<program>: <what>" and gives exit_failed.
/// `extra`: the program's own options (armada-cg's --breakdown).
int run_cg_program(int argc, char** argv, const NpbProgram& program, const std::function<int(const NpbArgs&)>& body,
                   std::vector<programs::Option> extra = {});

/// The class's matrix, rows in balanced blocks over the world: each rank generates its own
/// rows. Collective.
arrays::SparseMatrix<double> build_cg_matrix(const CgClass& c);

/// The bytes this rank must move for CG (the memory floor's count; docs/apps.md "Memory
/// floors"), with n its rows, g its ghost entries of x, e its stored entries and w the column
/// index width (2 bytes when the rank's block and its ghost slots each span at most 2^16
/// columns, else 4):
///   product A p:  e (8 + w) matrix values and indices + 4 n row pointers, 8 (n + g) reads of p,
///                 8 n writes of q, 8 g the exchange (each ghost entry written once into place)
///   iteration:    product + 2 vector reads for p.q + 6 for z += a p, r -= a q, r.r (4 read,
///                 2 written) + 3 for p = r + b p: product + 88 n
///   inverse-power step, besides its 25 iterations: the start (x read, q z r p written) 40 n,
///                 r.r 8 n, the residual's product and x - r 16 n, x.z and z.z 16 n, x = z/|z| 16 n:
///                 product + 96 n
struct CgBytes {
  double product = 0, iteration = 0, step = 0;  ///< `step`: one whole inverse-power step (25 iterations and the rest)
};
CgBytes cg_rank_bytes(const arrays::SparseMatrix<double>& A);

}  // namespace armada::apps::cg
