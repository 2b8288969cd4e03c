#include "cg_program.hpp"

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "armada/apps/npb_report.hpp"
#include "armada/rma/rma.hpp"

namespace armada::apps::cg {

NpbParse parse_cg_command_line(int argc, const char* const* argv, const NpbProgram& program,
                               std::vector<programs::Option> extra) {
  const bool root = rma::rank() == 0;
  NpbParse parsed = parse_npb_command_line(argc, argv, program, root, std::move(extra));
  if (!parsed.args || parsed.args->json_path.empty()) return parsed;
  int writable = 1;
  std::string why;
  if (root) writable = npb_json_path_writable(parsed.args->json_path, why) ? 1 : 0;
  MPI_Bcast(&writable, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!writable) {
    if (root) std::fprintf(stderr, "%s: %s\n", program.name.c_str(), why.c_str());
    return {std::nullopt, exit_bad_input};
  }
  return parsed;
}

int run_cg_program(int argc, char** argv, const NpbProgram& program, const std::function<int(const NpbArgs&)>& body,
                   std::vector<programs::Option> extra) {
  try {
    rma::Session session(program.name.c_str(), &argc, &argv);
    const NpbParse parsed = parse_cg_command_line(argc, argv, program, std::move(extra));
    if (!parsed.args) return parsed.exit_code;
    int code = body(*parsed.args);
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program.name.c_str(), e.what());
    return exit_failed;
  }
}

arrays::SparseMatrix<double> build_cg_matrix(const CgClass& c) {
  const auto rows = arrays::Distribution::regular({c.na}, rma::size());
  const arrays::Patch mine = rows.block(rma::rank());
  const long r0 = mine.empty() ? 0 : mine.lo[0], r1 = mine.empty() ? 0 : mine.hi[0];
  arrays::SparseOptions o;
  o.name = std::string("CG class ") + c.name;
  return arrays::SparseMatrix<double>::create(c.na, c.na, make_cg_matrix(c, r0, r1), o);
}

CgBytes cg_rank_bytes(const arrays::SparseMatrix<double>& A) {
  const auto [r0, r1] = A.local_rows();
  const auto n = static_cast<double>(r1 - r0), g = static_cast<double>(A.ghost_columns().size());
  const auto e = static_cast<double>(A.local_nonzeros());
  constexpr arrays::Index narrow = arrays::Index{1} << 16;
  const double w = (r1 - r0) <= narrow && static_cast<arrays::Index>(A.ghost_columns().size()) <= narrow ? 2 : 4;
  CgBytes b;
  b.product = e * (8 + w) + 4 * n + 8 * (n + g) + 8 * n + 8 * g;
  b.iteration = b.product + 88 * n;
  b.step = cg_inner_iterations * b.iteration + b.product + 96 * n;
  return b;
}

}  // namespace armada::apps::cg
