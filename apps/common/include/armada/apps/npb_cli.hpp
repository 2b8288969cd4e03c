// The command line shared by Armada's NAS Parallel Benchmarks programs (armada-mg, armada-cg,
// armada-spmv-bench), as rows of the programs' kit (armada/programs/options.hpp):
//
//   <program> --class S|W|A|B|C [--comm rma|mpi] [--json FILE] [program's own options] [--help]
//
// --class picks the NPB problem class (required; the program lists the classes it has),
// --comm the halo/communication variant (rma: Armada's one-sided arrays, the default; mpi: the
// same kernels over MPI two-sided messages, the baseline), --json a file that receives the
// result line too. Options may also be written --class=S. Parsing needs no MPI; every rank
// parses the same arguments and reaches the same decision.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "armada/programs/options.hpp"

namespace armada::apps {

/// How the program communicates: Armada's one-sided layer or the plain MPI baseline.
enum class Comm { rma, mpi };
/// "rma" / "mpi"
const char* to_string(Comm comm) noexcept;

/// What a program tells the parser about itself.
struct NpbProgram {
  std::string name;         ///< the executable, e.g. "armada-mg" (for messages and usage)
  std::string benchmark;    ///< "MG", "CG"
  std::string classes;      ///< the valid class letters, e.g. "SWABC"
  std::string description;  ///< one line for --help
};

/// A parsed command line.
struct NpbArgs {
  char problem_class = 0;  ///< one of NpbProgram::classes
  Comm comm = Comm::rma;
  std::string json_path;   ///< empty: no file
};

/// The outcome of parsing: either arguments to run with, or an exit code to stop with (0 after
/// --help, 2 after bad input).
struct NpbParse {
  std::optional<NpbArgs> args;
  int exit_code = 0;
};

/// The usage text (several lines, ending with a newline), generated from the table; `extra`
/// rows are the program's own options (armada-mg's checkpoint options).
std::string npb_usage(const NpbProgram& program, std::vector<programs::Option> extra = {});

/// Parses argv[1..argc), the program's `extra` rows too (into their targets). On --help prints
/// the usage on stdout; on an unknown option, a missing or bad value (class not in
/// program.classes, comm not rma|mpi, empty file name), a repeated option or a missing --class
/// prints "<program>: <what is wrong>" and the usage on stderr, and returns exit code 2. Prints
/// only when `print` (pass true on one rank only).
NpbParse parse_npb_command_line(int argc, const char* const* argv, const NpbProgram& program, bool print,
                                std::vector<programs::Option> extra = {});

}  // namespace armada::apps
