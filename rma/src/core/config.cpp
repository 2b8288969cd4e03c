#include "armada/rma/config.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "core/check.hpp"

namespace armada::rma {

namespace {
constexpr Setting kSettings[] = {
    {"ARMADA_NODE_SIZE", "int", "0",
     "Ranks per virtual node. 0 uses the physical nodes (ranks that share memory); k > 0 splits "
     "each physical node into nodes of k consecutive ranks, so that one machine exercises the "
     "inter-node paths."},
    {"ARMADA_VERBOSE", "bool", "0", "Print the configuration and node topology on rank 0 at init."},
    {"ARMADA_SPIN_LIMIT", "int", "2000",
     "Busy-wait rounds before a waiting rank yields or sleeps (mutexes, accumulate locks)."},
};

long parse_int(const char* name, const char* text, long min, long max) {
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
    detail::throw_invalid("rma::init", name, std::string("'") + text + "'",
                          "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

bool parse_bool(const char* name, const char* text) {
  const std::string t = text;
  if (t == "1" || t == "true" || t == "yes" || t == "on") return true;
  if (t == "0" || t == "false" || t == "no" || t == "off" || t.empty()) return false;
  detail::throw_invalid("rma::init", name, "'" + t + "'", "must be one of 1, 0, true, false, yes, no, on, off");
}
}  // namespace

std::span<const Setting> settings() noexcept { return kSettings; }

Config read_config() {
  Config c;
  if (const char* v = std::getenv("ARMADA_NODE_SIZE")) c.node_size = static_cast<int>(parse_int("ARMADA_NODE_SIZE", v, 0, 1 << 20));
  if (const char* v = std::getenv("ARMADA_VERBOSE")) c.verbose = parse_bool("ARMADA_VERBOSE", v);
  if (const char* v = std::getenv("ARMADA_SPIN_LIMIT")) c.spin_limit = static_cast<int>(parse_int("ARMADA_SPIN_LIMIT", v, 0, 1 << 30));
  return c;
}

std::string setting_value(const Setting& setting) {
  const char* v = std::getenv(setting.name);
  return v ? v : setting.default_value;
}

}  // namespace armada::rma
