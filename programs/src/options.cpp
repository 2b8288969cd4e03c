#include "armada/programs/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace armada::programs {

namespace {

[[noreturn]] void refuse(const std::string& message) { throw UsageError(message); }

std::string quoted(const std::string& option, const std::string& value) { return option + ": '" + value + "'"; }

long integer_value(const Option& o, const std::string& shown_name, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || text.empty() || end == text.c_str() || *end != '\0' || v < o.min || v > o.max)
    refuse(quoted(shown_name, text) + " is not an integer in [" + std::to_string(o.min) + ", " + std::to_string(o.max) +
           "]");
  return v;
}

void check_choice(const Option& o, const std::string& shown_name, const std::string& item) {
  if (std::find(o.choices.begin(), o.choices.end(), item) == o.choices.end())
    refuse(shown_name + ": unknown value '" + item + "' (choose from " + joined(o.choices) + ")");
}

bool takes_value(const Option& o) { return o.kind != Kind::flag; }
bool positional(const Option& o) { return !o.name.starts_with("-"); }

// "N", "FILE", "rma|mpi", "G[,G..]"
std::string value_name(const Option& o) {
  if (!o.value_name.empty()) return o.value_name;
  switch (o.kind) {
    case Kind::flag: return "";
    case Kind::integer: return "N";
    case Kind::text: return "TEXT";
    case Kind::choice: return joined(o.choices, "|");
    case Kind::list: return "X[,X..]";
  }
  return "";
}

}  // namespace

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

std::vector<std::string> split_list(const std::string& option, const std::string& text) {
  std::vector<std::string> items;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) refuse(quoted(option, text) + " has an empty item");
    items.push_back(std::move(item));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

CommandLine::CommandLine(ProgramInfo program, std::vector<Option> options)
    : program_(std::move(program)), options_(std::move(options)) {
  Option help;
  help.name = "--help";
  help.alias = "-h";
  help.help = "this text";
  help.hidden_in_synopsis = !program_.show_help_in_synopsis;
  options_.push_back(std::move(help));
}

const Option* CommandLine::find(const std::string& name) const {
  for (const Option& o : options_)
    if (!positional(o) && (o.name == name || (!o.alias.empty() && o.alias == name))) return &o;
  return nullptr;
}

void CommandLine::apply(const Option& o, const std::string& shown_name, const std::string& value) const {
  switch (o.kind) {
    case Kind::flag:
      if (o.flag_target) *o.flag_target = o.flag_value;
      break;
    case Kind::integer: {
      const long v = integer_value(o, shown_name, value);
      if (o.int_target) *o.int_target = static_cast<int>(v);
      if (o.long_target) *o.long_target = v;
      break;
    }
    case Kind::text:
      if (o.nonempty && value.empty()) refuse(shown_name + ": '' is empty (give a " + value_name(o) + ")");
      break;
    case Kind::choice:
      check_choice(o, shown_name, value);
      break;
    case Kind::list: {
      const std::vector<std::string> items = split_list(shown_name, value);
      if (!o.choices.empty())
        for (const std::string& item : items) check_choice(o, shown_name, item);
      if (o.list_target) *o.list_target = items;
      break;
    }
  }
  if (o.text_target && o.kind != Kind::flag) *o.text_target = value;
  if (o.take) {
    const std::string reason = o.take(value);
    if (!reason.empty()) refuse(quoted(shown_name, value) + " " + reason);
  }
}

Parsed CommandLine::parse(int argc, const char* const* argv) const {
  Parsed parsed;
  std::size_t next_positional = 0;
  std::vector<const Option*> positionals;
  for (const Option& o : options_)
    if (positional(o)) positionals.push_back(&o);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!arg.starts_with("-") || arg == "-") {
      if (next_positional >= positionals.size()) refuse("unexpected argument '" + arg + "' (see --help)");
      const Option& o = *positionals[next_positional++];
      apply(o, o.name, arg);
      parsed.given.insert(o.name);
      continue;
    }
    const std::size_t eq = arg.starts_with("--") ? arg.find('=') : std::string::npos;
    const std::string name = arg.substr(0, eq);
    const Option* o = find(name);
    if (!o) refuse("unknown option '" + name + "' (see --help)");
    if (o->name == "--help") {
      parsed.help = true;
      continue;
    }
    std::string value;
    if (takes_value(*o)) {
      if (eq != std::string::npos) value = arg.substr(eq + 1);
      else if (i + 1 < argc) value = argv[++i];
      else refuse(name + " needs a value");
      if (parsed.has(o->name) && !program_.last_wins) refuse(name + " given twice");
    } else if (eq != std::string::npos) {
      refuse(name + " takes no value, got '" + arg.substr(eq + 1) + "'");
    }
    apply(*o, name, value);
    parsed.given.insert(o->name);
  }
  if (!parsed.help)
    for (const Option& o : options_)
      if (o.required && !parsed.has(o.name))
        refuse(o.name + " is required" + (o.choices.empty() ? "" : " (choose from " + joined(o.choices) + ")"));
  return parsed;
}

std::string CommandLine::usage() const {
  // The usage line, wrapped before 100 columns under the program's name.
  const std::string head = "usage: " + program_.launch + program_.name;
  std::string synopsis, line = head;
  for (const Option& o : options_) {
    if (o.hidden_in_synopsis) continue;
    // A choice shows its values here ("--comm rma|mpi"), its value name in the column below.
    const std::string value = o.kind == Kind::choice ? joined(o.choices, "|") : value_name(o);
    std::string item = positional(o) ? value_name(o) : o.name + (takes_value(o) ? " " + value : "");
    item = o.required ? item : "[" + item + "]";
    if (line.size() + 1 + item.size() > 100 && line.size() > head.size()) {
      synopsis += line + "\n";
      line = std::string(head.size(), ' ');
    }
    line += " " + item;
  }
  synopsis += line + "\n";
  // The option column: "--reps N", "-o, --output FILE" ... as wide as the widest.
  std::vector<std::string> left;
  std::size_t width = 0;
  for (const Option& o : options_) {
    std::string l = positional(o) ? value_name(o) : o.name + (takes_value(o) ? " " + value_name(o) : "");
    width = std::max(width, l.size());
    left.push_back(std::move(l));
  }
  width += 2;
  std::string text = synopsis + program_.description;
  for (std::size_t i = 0; i < options_.size(); ++i) {
    const Option& o = options_[i];
    std::string help = o.help;
    if (o.required) help += " (required: no default)";
    else if (!o.default_text.empty()) help += " (default " + o.default_text + ")";
    text += "  " + left[i] + std::string(width - left[i].size(), ' ');
    for (std::size_t start = 0;;) {  // continuation lines under the help column
      const std::size_t nl = help.find('\n', start);
      text += help.substr(start, nl == std::string::npos ? std::string::npos : nl - start) + "\n";
      if (nl == std::string::npos) break;
      text += std::string(width + 2, ' ');
      start = nl + 1;
    }
  }
  return text + program_.epilogue;
}

std::optional<int> CommandLine::handle(int argc, const char* const* argv, bool print, Parsed* parsed) const {
  Parsed p;
  try {
    p = parse(argc, argv);
  } catch (const std::invalid_argument& e) {  // UsageError, or a row's take() with its own message
    if (print) print_error(e.what());
    return exit_usage;
  }
  if (parsed) *parsed = p;
  if (p.help) {
    if (print) {
      std::fputs(usage().c_str(), stdout);
      std::fflush(stdout);
    }
    return exit_ok;
  }
  return std::nullopt;
}

void CommandLine::print_error(const std::string& message) const {
  std::fprintf(stderr, "%s: %s\n%s", program_.name.c_str(), message.c_str(), usage().c_str());
  std::fflush(stderr);
}

}  // namespace armada::programs
