// JSON for the programs' results (benchmarks, apps, tools): the string and number encoders, one
// JSON object on one line (JsonLine) and a JSON-lines results file (JsonLinesFile) that every
// program writes its records with, and a small reader that reads back what they write
// (armada-bench re-plots a results file with it; the tests check the round trip). Numbers are
// doubles; objects keep their member order. Standard C++ only (no MPI, no Armada layer).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace armada::programs::json {

struct Value;
using Array = std::vector<Value>;
using Object = std::vector<std::pair<std::string, Value>>;

struct Value {
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<Array>, std::shared_ptr<Object>> v;

  bool is_null() const noexcept { return std::holds_alternative<std::nullptr_t>(v); }
  bool is_number() const noexcept { return std::holds_alternative<double>(v); }
  bool is_string() const noexcept { return std::holds_alternative<std::string>(v); }
  bool is_array() const noexcept { return std::holds_alternative<std::shared_ptr<Array>>(v); }
  bool is_object() const noexcept { return std::holds_alternative<std::shared_ptr<Object>>(v); }
  /// Accessors; each throws std::runtime_error naming the expected type on a mismatch.
  double number() const;
  bool boolean() const;
  const std::string& string() const;
  const Array& array() const;
  const Object& object() const;
  /// Member `key` of an object, or nullptr.
  const Value* find(const std::string& key) const;
};

/// Parses one JSON document (RFC 8259; \u escapes of the BMP). Throws std::runtime_error with
/// the byte offset of the first error.
Value parse(const std::string& text);

/// `s` as a JSON string literal (quotes and escapes).
std::string quote(const std::string& s);
/// `v` as a JSON number ("null" when not finite): with `digits` significant digits, or with
/// digits = 0 the shortest form (15 to 17 digits) that reads back as exactly `v`.
std::string number(double v, int digits = 0);
/// `v` in the printf format `format` (one double conversion, e.g. "%.15e"), "null" when not finite.
std::string number(double v, const char* format);

/// One JSON object on one line, its members in the order added:
///   JsonLine().add("benchmark", "MG").add("ranks", 2).add("time_s", 1.5, "%.9g").str()
///   == {"benchmark":"MG","ranks":2,"time_s":1.5}
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& text);  ///< a string
  JsonLine& add(const std::string& key, const char* text);
  JsonLine& add(const std::string& key, bool value);
  JsonLine& add(const std::string& key, int value);
  JsonLine& add(const std::string& key, long value);
  JsonLine& add(const std::string& key, long long value);
  JsonLine& add(const std::string& key, unsigned long value);
  JsonLine& add(const std::string& key, unsigned long long value);
  /// A number: shortest exact form (digits 0), `digits` significant digits, or a printf format.
  JsonLine& add(const std::string& key, double value, int digits = 0);
  JsonLine& add(const std::string& key, double value, const char* format);
  /// A value already encoded as JSON (a nested object, null, ...).
  JsonLine& raw(const std::string& key, const std::string& encoded);
  /// Adds `other`'s members after these.
  JsonLine& append(const JsonLine& other);
  /// The object, without a newline.
  std::string str() const { return body_.empty() ? "{}" : body_ + "}"; }
  /// The members without the braces ("" when none): "a":1,"b":"x"
  std::string members() const { return body_.empty() ? std::string() : body_.substr(1); }

 private:
  std::string body_;  // "{" and the members so far
};

/// A results file of JSON lines (one record per line). Only a writing rank opens one: `path`
/// empty means no file. Every failure is kept, so that the program can say what went wrong and
/// exit 2 (bad output path) or 1.
class JsonLinesFile {
 public:
  JsonLinesFile() = default;
  /// Opens (truncates) `path`; empty: no file. ok() is false and error() says why when it
  /// cannot be opened: "<option> '<path>': cannot write: <reason>".
  explicit JsonLinesFile(const std::string& path, const std::string& option = "--json");
  ~JsonLinesFile();
  JsonLinesFile(const JsonLinesFile&) = delete;
  JsonLinesFile& operator=(const JsonLinesFile&) = delete;

  bool is_open() const noexcept { return file_ != nullptr; }
  bool ok() const noexcept { return error_.empty(); }
  const std::string& error() const noexcept { return error_; }
  /// Writes one line (a newline is added); false after any failure.
  bool write(const std::string& line);
  bool write(const JsonLine& line) { return write(line.str()); }
  /// Flushes and closes; false if anything failed (error() says what).
  bool close();

 private:
  std::FILE* file_ = nullptr;
  std::string path_, option_, error_;
};

/// Checks that `path` can be written (creates or truncates it): "" when it can, else
/// "<option> '<path>': cannot write: <reason>". Programs call it before they run so that a bad
/// output path is bad input (exit 2), not a failure after the work.
std::string check_writable(const std::string& path, const std::string& option = "--json");

/// Writes `lines` to `path` (one per line; creates or truncates); "" or the reason as above.
std::string write_lines(const std::string& path, const std::vector<std::string>& lines,
                        const std::string& option = "--json");

}  // namespace armada::programs::json
