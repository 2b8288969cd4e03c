// Results of the benchmarks: a human table on the root rank and, with --output FILE,
// machine-readable records (JSON lines, or CSV when FILE ends in .csv).
//
// One record compares one Armada figure with one baseline measured in the same launch:
//   {"bench":"put_bw","bytes":1048576,"variant":"hot","unit":"GB/s","armada":12.3,
//    "median":12.3,"min":12.1,"max":12.5,"baseline":"memcpy","baseline_value":13.0,
//    "baseline_min":12.8,"baseline_max":13.1,"ratio":0.946,"reps":7, ...extra fields}
// "armada" and "median" are the same number (the median over repetitions); ratio is
// armada / baseline_value. A figure with two baselines gives two records.
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "armada/programs/json.hpp"
#include "common/stats.hpp"

namespace armada::bench {

enum class Unit { GBps, Micros, Percent, Bytes };

const char* to_string(Unit unit) noexcept;   ///< "GB/s", "us", "%" or "B"

/// "8 B", "4 KiB", "1 MiB", or the exact byte count when it is not a round power of two.
std::string format_bytes(std::size_t bytes);

/// `s` as one CSV cell (quoted when it holds a comma, a quote or a newline).
std::string csv_cell(const std::string& s);

/// An extra field of a record: key and its value already encoded as JSON.
using Field = std::pair<std::string, std::string>;
Field field(std::string key, double value);
Field field(std::string key, long long value);
Field field(std::string key, const std::string& value);

struct Result {
  std::string bench;          ///< machine name, e.g. "put_bw"
  std::string label;          ///< the table's "op" column (bench when empty)
  std::size_t bytes = 0;
  std::string variant;        ///< "hot" or "cold"
  Unit unit = Unit::GBps;
  Stats armada;
  std::string baseline;       ///< baseline name; empty when the figure has none
  Stats baseline_stats;
  /// Non-empty when the baseline travels another route than the Armada figure (e.g. "other
  /// route"): the table prints the note with the ratio in parentheses, never a plain ratio, and
  /// the record carries it as "ratio_route".
  std::string ratio_note;
  std::vector<Field> fields;  ///< extra fields (seg_bytes, nseg, scale, ...)
};

/// One line of the text table (op, size, var, armada, unit, [min .. max], baseline, value,
/// ratio): each cell in its column, left- or right-aligned. An op name longer than its column
/// goes on a line of its own above the row; another cell too long for its column pushes the
/// next ones right only until the following columns' padding absorbs it, so that the columns
/// line up again.
std::string table_line(const std::vector<std::string>& cells);

class ResultWriter {
 public:
  /// Only `root` prints and writes. `path` empty: no file. Throws std::runtime_error if the
  /// file cannot be opened.
  ResultWriter(bool root, const std::string& path);
  ~ResultWriter();
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  /// A record describing the run (JSON: {"bench":"_meta",...}; CSV: a "# key=value" line).
  void meta(const std::vector<Field>& fields);
  /// Prints a section title and the table header.
  void section(const std::string& title);
  /// Prints a free text line in the table (not written to the file).
  void note(const std::string& text);
  /// Prints one table row and writes one record.
  void add(const Result& result);
  /// Flushes and closes the file; false if any write failed.
  bool close();
  std::size_t records() const noexcept { return records_; }

 private:
  bool root_;
  bool csv_ = false;
  std::unique_ptr<programs::json::JsonLinesFile> file_;  // the programs' one lines writer
  std::size_t records_ = 0;
};

}  // namespace armada::bench
