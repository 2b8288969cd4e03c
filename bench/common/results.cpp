#include "common/results.hpp"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "armada/programs/json.hpp"

namespace armada::bench {

namespace {

namespace json = programs::json;

std::string json_string(const std::string& s) { return json::quote(s); }

std::string json_number(double v) { return json::number(v, 6); }

/// A short human form of a figure: 4 significant digits, no exponent below 10^6.
std::string human(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[32];
  if (std::fabs(v) >= 1000)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

double ratio_of(const Result& r) {
  if (r.baseline.empty() || r.baseline_stats.count == 0 || r.baseline_stats.median == 0)
    return std::nan("");
  return r.armada.median / r.baseline_stats.median;
}

// The text table's columns, in order: title, width, alignment, spaces before it.
struct Column {
  const char* title;
  int width;
  bool left;
  int gap;
};
constexpr Column kColumns[] = {{"op", 30, true, 0},        {"size", 8, false, 1},   {"var", 5, true, 1},
                               {"armada", 10, false, 1},   {"unit", 5, true, 1},    {"[min .. max]", 21, true, 1},
                               {"baseline", 19, true, 2},  {"value", 10, false, 1}, {"ratio", 8, false, 1}};
constexpr std::size_t kColumnCount = std::size(kColumns);

constexpr const char* kCsvHeader =
    "bench,bytes,variant,unit,armada,median,min,max,baseline,baseline_value,baseline_min,"
    "baseline_max,ratio,reps,extra\n";

}  // namespace

std::string table_line(const std::vector<std::string>& cells) {
  std::string line, first;
  std::size_t start = 0;  // where the column starts when nothing before it overflowed
  for (std::size_t i = 0; i < kColumnCount; ++i) {
    const Column& c = kColumns[i];
    const std::string cell = i < cells.size() ? cells[i] : "";
    start += static_cast<std::size_t>(c.gap);
    if (i == 0 && cell.size() > static_cast<std::size_t>(c.width)) {
      first = cell + "\n";  // a long name gets its own line: the columns stay in place
    } else {
      const std::size_t width = static_cast<std::size_t>(c.width);
      const std::size_t at = c.left ? start : start + width - std::min(cell.size(), width);
      // Past the column already (a long cell before): one space, and the next columns catch up.
      const std::size_t min_gap = i == 0 ? 0 : 1;
      line.append(line.size() + min_gap > at ? min_gap : at - line.size(), ' ');
      line += cell;
    }
    start += static_cast<std::size_t>(c.width);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return first + line;
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

const char* to_string(Unit unit) noexcept {
  switch (unit) {
    case Unit::GBps: return "GB/s";
    case Unit::Micros: return "us";
    case Unit::Percent: return "%";
    case Unit::Bytes: return "B";
  }
  return "?";
}

std::string format_bytes(std::size_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  std::size_t v = bytes;
  while (u < 3 && v >= 1024 && v % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  return std::to_string(v) + " " + kUnits[u];
}

Field field(std::string key, double value) { return {std::move(key), json_number(value)}; }
Field field(std::string key, long long value) { return {std::move(key), std::to_string(value)}; }
Field field(std::string key, const std::string& value) { return {std::move(key), json_string(value)}; }

ResultWriter::ResultWriter(bool root, const std::string& path) : root_(root) {
  if (!root_ || path.empty()) return;
  csv_ = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  file_ = std::make_unique<programs::json::JsonLinesFile>(path, "--output");
  if (!file_->ok()) throw std::runtime_error(file_->error());
  if (csv_) file_->write(std::string(kCsvHeader, std::strlen(kCsvHeader) - 1));  // the header without its newline
}

ResultWriter::~ResultWriter() { close(); }

bool ResultWriter::close() { return !file_ || file_->close(); }

void ResultWriter::meta(const std::vector<Field>& fields) {
  if (!root_) return;
  std::printf("run:");
  for (const auto& [k, v] : fields) std::printf(" %s=%s", k.c_str(), v.c_str());
  std::printf("\n");
  std::fflush(stdout);
  if (!file_) return;
  if (csv_) {
    std::string line = "#";
    for (const auto& [k, v] : fields) line += " " + k + "=" + v;
    file_->write(line);
  } else {
    json::JsonLine line;
    line.add("bench", "_meta");
    for (const auto& [k, v] : fields) line.raw(k, v);
    file_->write(line);
  }
}

void ResultWriter::section(const std::string& title) {
  if (!root_) return;
  std::printf("\n== %s\n", title.c_str());
  std::vector<std::string> titles;
  for (const Column& c : kColumns) titles.emplace_back(c.title);
  std::printf("%s\n", table_line(titles).c_str());
  std::fflush(stdout);
}

void ResultWriter::note(const std::string& text) {
  if (!root_) return;
  std::printf("   %s\n", text.c_str());
  std::fflush(stdout);
}

void ResultWriter::add(const Result& r) {
  if (!root_) return;
  const double ratio = ratio_of(r);
  const std::string label = r.label.empty() ? r.bench : r.label;
  std::string range = "[";
  range.append(human(r.armada.min)).append(" .. ").append(human(r.armada.max)).append("]");
  std::string ratio_text = std::isfinite(ratio) ? human(ratio) : "-";
  if (!r.ratio_note.empty() && std::isfinite(ratio)) ratio_text = r.ratio_note + " (" + ratio_text + ")";
  const std::string row = table_line({label, format_bytes(r.bytes), r.variant, human(r.armada.median),
                                      to_string(r.unit), range, r.baseline.empty() ? "-" : r.baseline,
                                      r.baseline.empty() ? "-" : human(r.baseline_stats.median), ratio_text});
  std::printf("%s\n", row.c_str());
  std::fflush(stdout);
  ++records_;
  if (!file_) return;

  if (csv_) {
    std::string line, extra;
    for (const auto& [k, v] : r.fields) extra += (extra.empty() ? "" : ";") + k + "=" + v;
    line = csv_cell(r.bench) + "," + std::to_string(r.bytes) + "," + csv_cell(r.variant) + "," +
           to_string(r.unit) + "," + json_number(r.armada.median) + "," + json_number(r.armada.median) +
           "," + json_number(r.armada.min) + "," + json_number(r.armada.max) + "," +
           csv_cell(r.baseline) + ",";
    if (!r.baseline.empty())
      line += json_number(r.baseline_stats.median) + "," + json_number(r.baseline_stats.min) + "," +
              json_number(r.baseline_stats.max) + "," + json_number(ratio);
    else
      line += ",,,";
    line.append(",").append(std::to_string(r.armada.count)).append(",").append(csv_cell(extra));
    file_->write(line);
    return;
  }
  json::JsonLine line;
  line.add("bench", r.bench).add("bytes", r.bytes).add("variant", r.variant).add("unit", to_string(r.unit));
  line.add("armada", r.armada.median, 6).add("median", r.armada.median, 6);
  line.add("min", r.armada.min, 6).add("max", r.armada.max, 6);
  if (r.baseline.empty()) {
    line.raw("baseline", "null").raw("baseline_value", "null").raw("ratio", "null");
  } else {
    line.add("baseline", r.baseline).add("baseline_value", r.baseline_stats.median, 6);
    line.add("baseline_min", r.baseline_stats.min, 6).add("baseline_max", r.baseline_stats.max, 6);
    line.add("ratio", ratio, 6);
    if (!r.ratio_note.empty()) line.add("ratio_route", r.ratio_note);
  }
  line.add("reps", static_cast<long long>(r.armada.count));
  for (const auto& [k, v] : r.fields) line.raw(k, v);
  file_->write(line);
}

}  // namespace armada::bench
