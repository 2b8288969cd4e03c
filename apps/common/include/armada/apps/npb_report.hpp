// The result of an NPB program run, printed two ways:
//  - the report as NPB's print_results lays it out (rank 0, stdout): "Class =", "Size =",
//    "Iterations =", "Time in seconds =", "Total processes =", "Communication =" (rma or mpi:
//    not in NPB's report), "Mop/s total =", "Mop/s/process =", "Operation type =",
//    "Verification =", "Version =", "Compile date =", each value right-aligned to the same
//    column as in NPB's MPI reports, then NPB's "Compile options:" block (the compiler, MPI and
//    flags this program was built with), preceded by the verification lines (value, reference,
//    relative error) that NPB's benchmarks print. Times get at least four significant digits
//    (NPB's f12.2 would print a class S run as 0.00);
//  - before the run, the banner every NPB program starts with (print_npb_banner), the same for
//    MG and CG;
//  - one JSON object on one line, the last line of the program's stdout, also written to the
//    --json file:
//    {"benchmark":"MG","class":"S","ranks":2,"comm":"rma","time_s":…,"mops":…,"value":…,
//     "reference":…,"verified":true}
//    Non-finite numbers are written as null (JSON has no NaN).
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "armada/apps/npb_cli.hpp"

namespace armada::apps {

struct NpbResult {
  std::string benchmark;               ///< "MG", "CG"
  char problem_class = 0;              ///< 'S', 'W', 'A', ...
  std::array<long, 3> size{};          ///< grid n1 x n2 x n3; n2 = n3 = 0: a one-number size (CG's n)
  int iterations = 0;
  int ranks = 0;                       ///< total processes
  Comm comm = Comm::rma;
  double time_s = 0;                   ///< the timed section, seconds (slowest rank)
  double mops = 0;                     ///< total Mop/s (the benchmark's operation count / time)
  std::string operation_type = "floating point";
  std::string value_name;              ///< what `value` is: "L2 Norm", "Zeta"
  double value = 0;                    ///< the computed verification value
  double reference = 0;                ///< the official value for the class
  double tolerance = 1e-8;             ///< relative error allowed
  bool verified = false;
  /// Members the program adds after "verified" (e.g. the memory floor), in order.
  std::vector<std::pair<std::string, double>> extra;
};

/// What the banner says before the run: NPB's "NAS Parallel Benchmarks 3.4 -- MG Benchmark", the
/// size and class, iterations, processes, how the program communicates, then the benchmark's
/// own lines (MG's process grid, CG's nonzeros per row and shift), label and value.
struct NpbBanner {
  std::string benchmark;               ///< "MG", "CG"
  char problem_class = 0;
  std::array<long, 3> size{};          ///< as NpbResult::size
  int iterations = 0;
  int ranks = 0;
  Comm comm = Comm::rma;
  std::vector<std::pair<std::string, std::string>> details;
};
void print_npb_banner(std::FILE* out, const NpbBanner& b);

/// The NPB specification version Armada's programs follow ("Version =" in the report).
inline constexpr const char* npb_version = "3.4";

/// A time in seconds with at least four significant digits and at least two decimals:
/// "0.01234", "0.2500", "12.50", "1234.57".
std::string npb_seconds(double t);

/// |value - reference| / |reference| (|value - reference| when reference is 0).
double npb_relative_error(double value, double reference);
/// True when the relative error is finite and within `tolerance`.
bool npb_verify(double value, double reference, double tolerance);

/// A number in Fortran's E20.13 form, as NPB prints values: " 0.5307707005734E-04".
std::string fortran_e20_13(double x);

/// The verification lines ("VERIFICATION SUCCESSFUL", "<value_name> is", "Reference is",
/// "Error is"), then the report block. Call on one rank.
void print_npb_report(std::FILE* out, const NpbResult& r);

/// The result as one JSON object (no newline).
std::string npb_json_line(const NpbResult& r);

/// Checks that `path` can be written (creating it, empty); on failure returns false and sets
/// `why`. Programs call it before running so that a bad --json is bad input (exit 2).
bool npb_json_path_writable(const std::string& path, std::string& why);

/// Prints the JSON line on stdout (as the last line) and, when `path` is not empty, writes it to
/// that file (replacing it). Returns false (and sets `why`) when the file cannot be written.
bool write_npb_json(const NpbResult& r, const std::string& path, std::string& why);

}  // namespace armada::apps
