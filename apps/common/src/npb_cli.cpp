#include "armada/apps/npb_cli.hpp"

#include <utility>

namespace armada::apps {
namespace {

using programs::Kind;

std::vector<std::string> letters(const std::string& classes) {
  std::vector<std::string> out;
  for (char c : classes) out.emplace_back(1, c);
  return out;
}

// The table, bound to `out`; `extra` rows are the program's own.
programs::CommandLine npb_table(const NpbProgram& program, NpbArgs& out, std::string& class_text, std::string& comm_text,
                                std::vector<programs::Option> extra) {
  const std::vector<std::string> classes = letters(program.classes);
  std::vector<programs::Option> rows{
      {.name = "--class", .kind = Kind::choice, .value_name = "X",
       .help = "NPB problem class, one of " + programs::joined(classes, "|"), .choices = classes, .required = true,
       .text_target = &class_text},
      {.name = "--comm", .kind = Kind::choice,
       .help = "rma: communicate through Armada's one-sided arrays;\nmpi: the same kernels over MPI two-sided messages "
               "(the baseline)",
       .default_text = "rma", .choices = {"rma", "mpi"}, .text_target = &comm_text},
      {.name = "--json", .kind = Kind::text, .value_name = "FILE", .help = "also write the result line (JSON) to FILE",
       .nonempty = true, .text_target = &out.json_path},
  };
  for (programs::Option& row : extra) rows.push_back(std::move(row));
  return programs::CommandLine({.name = program.name,
                                .launch = "mpiexec -n <ranks> ",
                                .description = "  " + program.description + "\n",
                                .epilogue = "Exit code: 0 verified, 1 verification failed, 2 bad input.\n"},
                               std::move(rows));
}

}  // namespace

const char* to_string(Comm comm) noexcept { return comm == Comm::mpi ? "mpi" : "rma"; }

std::string npb_usage(const NpbProgram& program, std::vector<programs::Option> extra) {
  NpbArgs args;
  std::string class_text, comm_text;
  return npb_table(program, args, class_text, comm_text, std::move(extra)).usage();
}

NpbParse parse_npb_command_line(int argc, const char* const* argv, const NpbProgram& program, bool print,
                                std::vector<programs::Option> extra) {
  NpbArgs args;
  std::string class_text, comm_text = "rma";
  const programs::CommandLine table = npb_table(program, args, class_text, comm_text, std::move(extra));
  if (const auto exit_code = table.handle(argc, argv, print)) return {std::nullopt, *exit_code};
  args.problem_class = class_text[0];
  args.comm = comm_text == "mpi" ? Comm::mpi : Comm::rma;
  return {args, 0};
}

}  // namespace armada::apps
