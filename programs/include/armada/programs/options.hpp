// One command-line kit for every Armada program (benchmarks, apps, tools): a table of options
// (option, kind, range or choices, default, help) from which both the parser and the usage text
// come, so that they cannot disagree and every program answers bad input the same way:
//
//   <program>: <option>: '<value>' is not an integer in [1, 1000]
//   <program>: <option>: unknown value '<value>' (choose from a, b, c)
//   <program>: <option> needs a value        <option> given twice        <option> is required
//   <program>: unknown option '<arg>' (see --help)
//
// followed by the usage on stderr, exit code 2; --help (or -h) prints the usage on stdout, exit
// code 0. Values may follow the option (--reps 3) or be joined to it (--reps=3). A flag may be
// repeated; an option with a value may not (unless the program says the last one wins). Standard C++ only: no MPI, no Armada layer, so that
// every program, at every layer, and the tests without a launcher can use it. Parsing is
// deterministic: every rank parses the same argv and reaches the same decision; only the rank
// that prints should pass print = true to handle().
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace armada::programs {

/// A bad command line; the message names the option, the value and what it must be.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

enum class Kind {
  flag,     ///< no value: sets a bool
  integer,  ///< a decimal integer in [min, max]
  text,     ///< any text (nonempty: not '')
  choice,   ///< one of `choices`
  list,     ///< comma-separated items, each one of `choices` (or any when `choices` is empty)
};

/// One row of a program's option table.
struct Option {
  std::string name{};             ///< "--reps"; a name without a leading '-' is a positional argument
  Kind kind = Kind::flag;
  std::string value_name{};       ///< in the usage: "N", "FILE", "S|W|A" (default: derived from the kind)
  std::string help{};             ///< the usage's text (lines after the first: '\n', indented by the kit)
  std::string default_text{};     ///< shown as "(default ...)"; empty: none shown
  long min = 0, max = 0;        ///< integer: the accepted range
  std::vector<std::string> choices{};  ///< choice, list: the accepted values, in usage order
  bool required = false;        ///< the usage shows "(required: no default)"
  bool nonempty = false;        ///< text: refuse ''
  std::string alias{};            ///< another spelling, e.g. "-o"
  bool hidden_in_synopsis = false;  ///< leave it out of the usage's first line

  /// Where the value goes (one of them): a bool for flags, a number, a text, a list of items.
  bool* flag_target = nullptr;
  bool flag_value = true;       ///< what a flag stores (false for --no-pin)
  int* int_target = nullptr;
  long* long_target = nullptr;
  std::string* text_target = nullptr;
  std::vector<std::string>* list_target = nullptr;
  /// And/or a function of the checked text (conversions a kind does not cover). It may throw
  /// std::invalid_argument (UsageError) with a message of its own, or return a reason:
  /// "<option>: '<value>' <reason>".
  std::function<std::string(const std::string& value)> take{};
};

/// What a program says about itself around its options.
struct ProgramInfo {
  std::string name{};         ///< "armada-mg": messages start with it
  std::string launch{};       ///< before the name in the usage, e.g. "mpiexec -n <ranks> "
  std::string description{};  ///< lines after the usage line (each ends with '\n'), e.g. the families
  std::string epilogue{};     ///< lines after the options, e.g. "Exit code: 0 ..., 2 bad input.\n"
  bool show_help_in_synopsis = false;  ///< "[--help]" at the end of the usage line
  /// An option with a value given twice: the last one counts (scripts that add options to the
  /// user's, e.g. scripts/bench.sh's --output-dir) instead of "<option> given twice".
  bool last_wins = false;
};

/// The outcome of parsing: which options were given (by name), and whether --help was.
struct Parsed {
  bool help = false;
  std::set<std::string> given;
  bool has(const std::string& option) const { return given.count(option) != 0; }
};

class CommandLine {
 public:
  CommandLine(ProgramInfo program, std::vector<Option> options);

  /// Parses argv[1..argc) into the options' targets. Throws std::invalid_argument (UsageError,
  /// or a row's take()) on bad input; --help
  /// stops nothing (the rest is still checked) but sets Parsed::help and lets required options
  /// go missing.
  Parsed parse(int argc, const char* const* argv) const;

  /// The usage text, generated from the table (several lines, ending with a newline).
  std::string usage() const;

  /// parse(), and what the program does next: nullopt to run; 0 after --help (usage printed
  /// on stdout); 2 after bad input ("<program>: <message>" and the usage printed on stderr).
  /// Prints only when `print`.
  std::optional<int> handle(int argc, const char* const* argv, bool print, Parsed* parsed = nullptr) const;

  /// "<program>: <message>\n<usage>" on stderr (for checks the program makes after parsing).
  void print_error(const std::string& message) const;

  const ProgramInfo& program() const noexcept { return program_; }

 private:
  const Option* find(const std::string& name) const;
  void apply(const Option& o, const std::string& shown_name, const std::string& value) const;

  ProgramInfo program_;
  std::vector<Option> options_;
};

/// Exit codes the programs share.
inline constexpr int exit_ok = 0, exit_failed = 1, exit_usage = 2;

/// "a, b, c"
std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ");
/// Splits "a,b,c" at the commas; an empty item is a UsageError naming `option` and the text.
std::vector<std::string> split_list(const std::string& option, const std::string& text);

}  // namespace armada::programs
