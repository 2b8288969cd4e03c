// JSON for the benchmarks' result files: the string and number encoders every writer uses, and
// a small reader that reads back what they write (armada-bench re-plots a results file with it;
// the tests check the round trip). Numbers are doubles; objects keep their member order.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace armada::bench::json {

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

}  // namespace armada::bench::json
