#include "armada/rma/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/check.hpp"
#include "common/settings.hpp"
#include "transport/plugin.hpp"

namespace armada::rma {

namespace {

// The core's rows; each transport's follow in registration order (transport/transports.cpp.in).
// ARMADA_TRANSPORT's accepted values are "auto", the registered inter-node transports and "none".
const std::string& transport_choices() {
  static const std::string choices = [] {
    std::string c;
    for (const detail::TransportEntry* e : detail::transport_entries())
      if (e->role == detail::TransportRole::InterNode) c += std::string(e->name) + "|";
    return "auto|" + c + "none";
  }();
  return choices;
}

// ARMADA_TRANSPORT's meaning: auto's rule, then each registered inter-node transport's summary.
const std::string& transport_meaning() {
  static const std::string meaning = [] {
    std::string m =
        "Transport to ranks on other nodes: 'auto' (rdma where UCX reaches every rank of another node one-sidedly; "
        "otherwise tcp where no host has a fabric device (/sys/class/infiniband, /sys/class/cxi); otherwise server, "
        "or mpi-rma below MPI_THREAD_MULTIPLE, or the first of rdma and tcp that started where other processes take "
        "a host's last core from the server's thread (ARMADA_AUTO_CORES, ARMADA_AUTO_OTHERS): the rule and its "
        "measurements are in docs/rma.md; armada-info --topology says which runs and why); ";
    for (const detail::TransportEntry* e : detail::transport_entries())
      if (e->role == detail::TransportRole::InterNode) m += "'" + std::string(e->name) + "': " + e->summary + "; ";
    return m + "'none': operations to other nodes fail with Unsupported.";
  }();
  return meaning;
}

std::vector<detail::SettingRow> core_rows() {
  using detail::field;
  using detail::SettingRow;
  return {
      {.doc = {"ARMADA_NODE_SIZE", "int", "0",
               "Ranks per virtual node. 0 uses the physical nodes (ranks that share memory); k > 0 splits "
               "each physical node into nodes of k consecutive ranks, so that one machine exercises the "
               "inter-node paths."},
       .min = 0, .max = 1 << 20, .store = field<&Config::node_size>},
      {.doc = {"ARMADA_VERBOSE", "bool", "0", "Print the configuration and node topology on rank 0 at init."},
       .store = field<&Config::verbose>},
      {.doc = {"ARMADA_SPIN_LIMIT", "int", "-1",
               "Busy-wait rounds before a waiting rank yields or sleeps (flags, the library's collectives, mutexes, "
               "accumulate locks). -1: 2000 where the host's ranks do not outnumber its cores (ARMADA_AUTO_CORES), "
               "else 0 (yield at once, as Open MPI does on an oversubscribed node: a spinning waiter holds the core "
               "another rank needs until its time slice ends); armada-info --topology says which."},
       .min = -1, .max = 1 << 30, .store = field<&Config::spin_limit>},
      {.doc = {"ARMADA_STALL_WARN", "int", "3",
               "Seconds a rank waits for another node's answer (a reply, a fence) before it says on stderr which "
               "ranks and hosts have not answered: a lost host or a cut link shows there before the MPI launcher "
               "ends the job. A collective call waiting this long for members that have not arrived names them "
               "and where each is (in no collective call, or in which other one). It only warns, once per wait, "
               "and goes on waiting. 0: never."},
       .min = 0, .max = 1 << 20, .store = field<&Config::stall_warn_s>},
      // Read by name (Config::integer): only the Python package's finalize uses it so far.
      {.doc = {"ARMADA_FINALIZE_WAIT", "int", "300",
               "Python: seconds armada.finalize (and the finalize at interpreter exit) waits for every rank to "
               "reach it before it aborts the job naming the ranks that have not: they are in another call, or "
               "stopped, and the collective teardown would wait for them forever. After ARMADA_STALL_WARN "
               "seconds it says whom it waits for. Raise it for programs whose ranks end far apart. 0: wait "
               "forever."},
       .min = 0, .max = 1 << 20},
      // Read by name (Config::integer): start_auto's load rule.
      {.doc = {"ARMADA_AUTO_CORES", "int", "0",
               "The cores per host ARMADA_TRANSPORT=auto's load rule and ARMADA_SPIN_LIMIT's rule count (0: the host's online cores): where "
               "neither rdma nor tcp suits, auto keeps the server unless a host has no core left for its thread and "
               "other processes running at init hold some (docs/rma.md). Set it where ranks are confined to "
               "fewer cores than are online, or in tests."},
       .min = 0, .max = 1 << 20},
      // Read by name (Config::integer): start_auto's load rule.
      {.doc = {"ARMADA_AUTO_OTHERS", "int", "-1",
               "The other processes' running threads per host ARMADA_TRANSPORT=auto's load rule counts (-1: "
               "sampled at init while the job's ranks sleep, docs/rma.md). Set it where the load at init is not "
               "the load the job will meet, or in tests."},
       .min = -1, .max = 1 << 20},
      // Read by name (Config::integer): the symmetric arena (core/arena.hpp).
      {.doc = {"ARMADA_SYMMETRIC_GIB", "int", "16384",
               "Address space (GiB) every rank reserves at one address at init, costing no memory, for the shared "
               "objects of segments: a segment then lies at the same offset on every member, and a rank keeps one "
               "origin per segment instead of a base per member (docs/scaling.md). Off where any rank cannot reserve "
               "it (armada-info --topology says why). 0: off."},
       .min = 0, .max = 1 << 17},
      {.doc = {"ARMADA_TRANSPORT", "string", "auto", transport_meaning().c_str()},
       .choices = transport_choices().c_str(), .store = field<&Config::transport>},
  };
}

// A value as messages show it: whole up to 80 characters, else its start and its length.
std::string shown(const std::string& text) {
  constexpr std::size_t kShown = 80;
  if (text.size() <= kShown) return "'" + text + "'";
  return "'" + text.substr(0, kShown) + "...' (" + std::to_string(text.size()) + " characters)";
}

// The operation messages name: rma::init for the table's rows, the reader of a layer's rows
// (read_settings) for those.
[[noreturn]] void reject(const char* name, const std::string& text, const std::string& reason,
                         const char* operation = "rma::init") {
  detail::throw_invalid(operation, name, shown(text), reason);
}

// Surrounding blanks are not part of a value, on either side ("2 " and " 2" are 2).
std::string trimmed(std::string_view v) {
  constexpr std::string_view blanks = " \t\n\r\f\v";
  const std::size_t first = v.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return std::string(v.substr(first, v.find_last_not_of(blanks) - first + 1));
}

long parse_int(const detail::SettingRow& row, const std::string& text, const char* operation) {
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str() || *end != '\0' || v < row.min || v > row.max)
    reject(row.doc.name, text, "must be an integer in [" + std::to_string(row.min) + ", " + std::to_string(row.max) + "]",
           operation);
  return v;
}

bool parse_bool(const char* name, const std::string& t, const char* operation = "rma::init") {
  if (t == "1" || t == "true" || t == "yes" || t == "on") return true;
  if (t == "0" || t == "false" || t == "no" || t == "off" || t.empty()) return false;
  reject(name, t, "must be one of 1, 0, true, false, yes, no, on, off", operation);
}

void check_choice(const detail::SettingRow& row, const std::string& text, const char* operation) {
  if (!row.choices) return;
  std::string listed;
  for (std::string_view rest = row.choices;;) {
    const std::size_t bar = rest.find('|');
    const std::string_view choice = rest.substr(0, bar);
    if (text == choice) return;
    listed += (listed.empty() ? "" : ", ") + std::string(choice);
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  reject(row.doc.name, text, "must be one of: " + listed, operation);
}

/// Checks `text` against the row: its number ("int"; "bool": 1 or 0; "string": 0).
long checked(const detail::SettingRow& row, const std::string& text, const char* operation = "rma::init") {
  const std::string_view type = row.doc.type;
  if (type == "int") return parse_int(row, text, operation);
  if (type == "bool") return parse_bool(row.doc.name, text, operation) ? 1 : 0;
  check_choice(row, text, operation);
  return 0;
}

/// Checks `text` against the row and keeps it in c.values; `owner` (the row's struct, or null)
/// receives it through the row's store.
void apply(Config& c, const detail::SettingRow& row, const std::string& text, void* owner) {
  const long number = checked(row, text);
  if (owner && row.store) row.store(owner, {text, number});
  c.values.insert_or_assign(row.doc.name, text);
}

const std::string& value_of(const Config& c, std::string_view name) {
  auto it = c.values.find(name);
  if (it == c.values.end())
    detail::throw_invalid("rma::Config", "name", std::string(name), "not a setting (armada-info lists them)");
  return it->second;
}

// The core's rows fill Config itself; a transport's rows fill its own struct when it starts.
std::span<const detail::SettingRow> own_rows() {
  static const std::vector<detail::SettingRow> rows = core_rows();
  return rows;
}

}  // namespace

namespace detail {
std::span<const SettingRow> setting_rows() {
  static const std::vector<SettingRow> rows = [] {
    std::vector<SettingRow> all(own_rows().begin(), own_rows().end());
    for (const TransportEntry* e : transport_entries()) all.insert(all.end(), e->settings.begin(), e->settings.end());
    return all;
  }();
  return rows;
}

void fill_settings(std::span<const SettingRow> rows, const Config& config, void* owner) {
  for (const SettingRow& row : rows) {
    const std::string& text = value_of(config, row.doc.name);
    if (row.store) row.store(owner, {text, checked(row, text)});
  }
}
}  // namespace detail

std::span<const Setting> settings() noexcept {
  static const std::vector<Setting> docs = [] {
    std::vector<Setting> d;
    for (const detail::SettingRow& row : detail::setting_rows()) d.push_back(row.doc);
    return d;
  }();
  return docs;
}

namespace {
// Applies every row's value (`value_of(row)`, or null: leave it) to c. setting_rows() starts
// with the core's rows, which fill Config itself; a transport's rows only keep the checked text
// until it starts (its struct is filled then).
template <class ValueOf>
void apply_all(Config& c, ValueOf&& value_of_row) {
  const std::span<const detail::SettingRow> rows = detail::setting_rows();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (const std::optional<std::string> text = value_of_row(rows[i]))
      apply(c, rows[i], *text, i < own_rows().size() ? &c : nullptr);
}
}  // namespace

Config::Config() {
  apply_all(*this, [](const detail::SettingRow& row) { return std::optional<std::string>(row.doc.default_value); });
}

long Config::integer(std::string_view name) const { return std::strtol(value_of(*this, name).c_str(), nullptr, 10); }
bool Config::flag(std::string_view name) const { return parse_bool("rma::Config::flag", value_of(*this, name)); }
const std::string& Config::text(std::string_view name) const { return value_of(*this, name); }

Config read_config() {
  Config c;
  apply_all(c, [](const detail::SettingRow& row) {
    const char* v = std::getenv(row.doc.name);
    return v ? std::optional<std::string>(trimmed(v)) : std::nullopt;
  });
  return c;
}

Config read_settings(std::span<const SettingRule> rules, const char* operation) {
  Config c;
  for (const SettingRule& rule : rules) {
    const detail::SettingRow row{.doc = rule.doc, .min = rule.min, .max = rule.max, .choices = rule.choices};
    const char* v = std::getenv(rule.doc.name);
    const std::string text = v ? trimmed(v) : std::string(rule.doc.default_value);
    checked(row, text, operation);
    c.values.insert_or_assign(rule.doc.name, text);
  }
  return c;
}

namespace {

// ARMADA_* variables that are not rma settings but belong elsewhere: the scripts' variables and
// the prefixes of the other layers' settings.
constexpr const char* kScriptVariables[] = {"ARMADA_MPI", "ARMADA_SANITIZE", "ARMADA_BUILD_DIR", "ARMADA_BUILD_BENCH",
                                            "ARMADA_SETUP_EXTRA"};
constexpr const char* kOtherLayers[] = {"ARMADA_ARRAYS_", "ARMADA_LINALG_", "ARMADA_APPS_", "ARMADA_BENCH_",
                                        "ARMADA_FORTRAN_", "ARMADA_TEST_"};

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool known_elsewhere(const std::string& name) {
  for (const char* v : kScriptVariables)
    if (name == v) return true;
  for (const char* prefix : kOtherLayers)
    if (name.starts_with(prefix)) return true;
  for (const detail::TransportEntry* e : detail::transport_entries())
    if (e->library_variables && name.starts_with(e->library_variables)) return true;
  return false;
}

}  // namespace

std::vector<UnknownSetting> unknown_settings() {
  std::vector<UnknownSetting> unknown;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    if (!entry.starts_with("ARMADA_")) continue;
    const std::string name = entry.substr(0, entry.find('='));
    if (known_elsewhere(name)) continue;
    const Setting* closest = nullptr;
    std::size_t best = std::string::npos;
    for (const Setting& s : settings()) {
      const std::size_t d = edit_distance(name, s.name);
      if (d < best) best = d, closest = &s;
    }
    if (best != 0) unknown.push_back({name, closest->name});
  }
  return unknown;
}

std::string setting_value(const Setting& setting) {
  const char* v = std::getenv(setting.name);
  return v ? v : setting.default_value;
}

}  // namespace armada::rma
