// What armada-cg and armada-spmv-bench share around their kernels: the command line (with the
// --json file checked once, on rank 0, for every rank) and the distributed CG matrix.
#pragma once

#include <functional>

#include "armada/apps/npb_cli.hpp"
#include "armada/arrays/sparse.hpp"
#include "npb_cg.hpp"

namespace armada::apps::cg {

/// parse_npb_command_line on every rank (rank 0 prints), then a --json file that cannot be
/// written is bad input too ("<program>: --json '...': cannot write: ..." on rank 0, exit code
/// 2 everywhere). Collective over the world (after rma::init).
NpbParse parse_cg_command_line(int argc, const char* const* argv, const NpbProgram& program);

/// The programs' exit codes.
inline constexpr int exit_verified = 0, exit_failed = 1, exit_bad_input = 2;

/// A program's main: starts rma (and MPI), parses the command line as above (returning its exit
/// code when it says stop), runs `body` on every rank and returns the exit code rank 0's body
/// returned, on every rank. An exception prints "<program>: <what>" and gives exit_failed.
int run_cg_program(int argc, char** argv, const NpbProgram& program, const std::function<int(const NpbArgs&)>& body);

/// The class's matrix, rows in balanced blocks over the world: each rank generates its own
/// rows. Collective.
arrays::SparseMatrix<double> build_cg_matrix(const CgClass& c);

}  // namespace armada::apps::cg
