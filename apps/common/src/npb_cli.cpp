#include "armada/apps/npb_cli.hpp"

#include <cstdio>
#include <stdexcept>

namespace armada::apps {
namespace {

// A bad command line; the message names the option and the value.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Splits "--opt=value" or takes the value from the next argument.
std::string_view take_value(std::string_view option, std::string_view inline_value, bool has_inline, int& i,
                            int argc, const char* const* argv) {
  if (has_inline) return inline_value;
  if (i + 1 >= argc) throw UsageError("option " + std::string(option) + " needs a value");
  return argv[++i];
}

void parse_into(NpbArgs& out, int argc, const char* const* argv, const NpbProgram& program, bool& help) {
  bool seen_class = false, seen_comm = false, seen_json = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i], value;
    const std::size_t eq = arg.find('=');
    const bool has_inline = arg.starts_with("--") && eq != std::string_view::npos;
    const std::string_view option = has_inline ? arg.substr(0, eq) : arg;
    if (has_inline) value = arg.substr(eq + 1);
    auto once = [&](bool& seen) {
      if (seen) throw UsageError("option " + std::string(option) + " given twice");
      seen = true;
    };
    if (option == "--help" || option == "-h") {
      help = true;
    } else if (option == "--class") {
      once(seen_class);
      value = take_value(option, value, has_inline, i, argc, argv);
      if (value.size() != 1 || program.classes.find(value[0]) == std::string::npos)
        throw UsageError("--class '" + std::string(value) + "' is not a class of " + program.benchmark +
                         " (valid: " + program.classes + ")");
      out.problem_class = value[0];
    } else if (option == "--comm") {
      once(seen_comm);
      value = take_value(option, value, has_inline, i, argc, argv);
      if (value == "rma") out.comm = Comm::rma;
      else if (value == "mpi") out.comm = Comm::mpi;
      else throw UsageError("--comm '" + std::string(value) + "' is not rma or mpi");
    } else if (option == "--json") {
      once(seen_json);
      value = take_value(option, value, has_inline, i, argc, argv);
      if (value.empty()) throw UsageError("--json needs a file name, got ''");
      out.json_path = value;
    } else {
      throw UsageError("unknown argument '" + std::string(arg) + "'");
    }
  }
  if (!help && !seen_class) throw UsageError("--class is required (valid: " + program.classes + ")");
}

}  // namespace

const char* to_string(Comm comm) noexcept { return comm == Comm::mpi ? "mpi" : "rma"; }

std::string npb_usage(const NpbProgram& program) {
  std::string classes;
  for (char c : program.classes) classes += (classes.empty() ? "" : "|") + std::string(1, c);
  return "usage: mpiexec -n <ranks> " + program.name + " --class " + classes +
         " [--comm rma|mpi] [--json FILE]\n" + "  " + program.description + "\n" +
         "  --class X      NPB problem class, one of " + classes + " (required: no default)\n"
         "  --comm rma     communicate through Armada's one-sided arrays (default)\n"
         "  --comm mpi     the same kernels over MPI two-sided messages (the baseline)\n"
         "  --json FILE    also write the result line (JSON) to FILE\n"
         "  --help         this text\n"
         "Exit code: 0 verified, 1 verification failed, 2 bad input.\n";
}

NpbParse parse_npb_command_line(int argc, const char* const* argv, const NpbProgram& program, bool print) {
  NpbArgs args;
  bool help = false;
  try {
    parse_into(args, argc, argv, program, help);
  } catch (const UsageError& e) {
    if (print) std::fprintf(stderr, "%s: %s\n%s", program.name.c_str(), e.what(), npb_usage(program).c_str());
    return {std::nullopt, 2};
  }
  if (help) {
    if (print) std::fputs(npb_usage(program).c_str(), stdout);
    return {std::nullopt, 0};
  }
  return {args, 0};
}

}  // namespace armada::apps
