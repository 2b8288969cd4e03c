#include "common/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace armada::bench {

namespace {

long parse_long(const std::string& option, const char* text, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi)
    throw std::invalid_argument(option + ": '" + text + "' is not an integer in [" + std::to_string(lo) +
                                ", " + std::to_string(hi) + "]");
  return v;
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options o;
  bool reps_given = false, rep_ms_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--reps") {
      o.reps = static_cast<int>(parse_long(a, value(), 1, 1000));
      reps_given = true;
    } else if (a == "--output" || a == "-o") {
      o.output = value();
      if (o.output.empty()) throw std::invalid_argument(a + " needs a file name");
    } else if (a == "--only") {
      o.only = value();
    } else if (a == "--no-pin") {
      o.pin = false;
    } else if (a == "--rep-ms") {
      o.rep_seconds = static_cast<double>(parse_long(a, value(), 1, 10000)) / 1000.0;
      rep_ms_given = true;
    } else {
      throw std::invalid_argument("unknown option '" + a + "' (see --help)");
    }
  }
  if (o.quick) {
    if (!reps_given) o.reps = 3;
    if (!rep_ms_given) o.rep_seconds = 0.003;
  }
  return o;
}

std::string usage(const char* program, const std::string& groups) {
  std::ostringstream s;
  s << "usage: mpiexec -n 2 " << program << " [options]\n"
    << "  --reps N        repetitions of every measurement; median, min and max are reported (default 7, 3 with --quick)\n"
    << "  --quick         short run: few iterations, a subset of sizes\n"
    << "  --output FILE   also write one record per line: JSON lines, or CSV if FILE ends in .csv\n"
    << "  --only G[,G..]  run only these groups: " << groups << "\n"
    << "  --rep-ms MS     target duration of one repetition in milliseconds (default 30, 3 with --quick)\n"
    << "  --no-pin        do not pin the origin and the target to two different CPUs\n"
    << "  --help          this text\n";
  return s.str();
}

std::string unknown_group(const Options& options, const std::string& groups) {
  for (std::size_t start = 0; !options.only.empty() && start <= options.only.size();) {
    const std::size_t comma = std::min(options.only.find(',', start), options.only.size());
    const std::string g = options.only.substr(start, comma - start);
    if (("," + groups + ",").find("," + g + ",") == std::string::npos) return g.empty() ? "(empty)" : g;
    start = comma + 1;
  }
  return {};
}

bool selected(const Options& options, const std::string& name) {
  if (options.only.empty()) return true;
  std::size_t start = 0;
  while (start <= options.only.size()) {
    const std::size_t comma = options.only.find(',', start);
    const std::size_t end = comma == std::string::npos ? options.only.size() : comma;
    if (options.only.compare(start, end - start, name) == 0 && end - start == name.size()) return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

}  // namespace armada::bench
