#include "armada/programs/json.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace armada::programs::json {

namespace {

// JSON's two-character escapes: the letter after the backslash and the character it stands for.
// The parser reads them all; quote() writes them all but '/', which needs none.
constexpr std::pair<char, char> kEscapes[] = {{'"', '"'},  {'\\', '\\'}, {'/', '/'},  {'b', '\b'},
                                              {'f', '\f'}, {'n', '\n'},  {'r', '\r'}, {'t', '\t'}};

[[noreturn]] void type_error(const char* want) { throw std::runtime_error(std::string("JSON value is not ") + want); }

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Value document() {
    Value v = value();
    space();
    if (i_ != s_.size()) fail("unexpected text after the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at byte " + std::to_string(i_));
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool take(char c) {
    space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    const std::string t = w;
    if (s_.compare(i_, t.size(), t) != 0) return false;
    i_ += t.size();
    return true;
  }

  Value value() {
    if (++depth_ > 200) fail("nesting too deep");
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    Value out;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      auto obj = std::make_shared<Object>();
      if (!take('}')) {
        do {
          space();
          if (i_ >= s_.size() || s_[i_] != '"') fail("expected a member name");
          std::string key = string();
          expect(':');
          obj->emplace_back(std::move(key), value());
        } while (take(','));
        expect('}');
      }
      out.v = obj;
    } else if (c == '[') {
      ++i_;
      auto arr = std::make_shared<Array>();
      if (!take(']')) {
        do arr->push_back(value());
        while (take(','));
        expect(']');
      }
      out.v = arr;
    } else if (c == '"') {
      out.v = string();
    } else if (word("true")) {
      out.v = true;
    } else if (word("false")) {
      out.v = false;
    } else if (word("null")) {
      out.v = nullptr;
    } else {
      out.v = num();
    }
    --depth_;
    return out;
  }

  double num() {
    const std::size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    auto digits = [&] {
      const std::size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - d;
    };
    const std::size_t int_start = i_;
    if (digits() == 0) fail("expected a value");
    if (s_[int_start] == '0' && i_ - int_start > 1) fail("a number has a leading zero");
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (digits() == 0) fail("expected digits after '.'");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (digits() == 0) fail("expected digits in the exponent");
    }
    return std::strtod(s_.substr(start, i_ - start).c_str(), nullptr);
  }

  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      const char e = s_[i_++];
      if (e == 'u') {
        unicode_escape(out);
        continue;
      }
      const auto* esc = std::find_if(std::begin(kEscapes), std::end(kEscapes), [e](const auto& x) { return x.first == e; });
      if (esc == std::end(kEscapes)) fail(std::string("unknown escape '\\") + e + "'");
      out += esc->second;
    }
  }

  // \uXXXX (the four hex digits after the u), written to `out` in UTF-8.
  void unicode_escape(std::string& out) {
    if (i_ + 4 > s_.size()) fail("short \\u escape");
    unsigned cp = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      cp <<= 4;
      if (h >= '0' && h <= '9') cp |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f') cp |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') cp |= static_cast<unsigned>(h - 'A' + 10);
      else fail("bad hex digit in a \\u escape");
    }
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

double Value::number() const {
  if (!is_number()) type_error("a number");
  return std::get<double>(v);
}
bool Value::boolean() const {
  if (!std::holds_alternative<bool>(v)) type_error("a boolean");
  return std::get<bool>(v);
}
const std::string& Value::string() const {
  if (!is_string()) type_error("a string");
  return std::get<std::string>(v);
}
const Array& Value::array() const {
  if (!is_array()) type_error("an array");
  return *std::get<std::shared_ptr<Array>>(v);
}
const Object& Value::object() const {
  if (!is_object()) type_error("an object");
  return *std::get<std::shared_ptr<Object>>(v);
}
const Value* Value::find(const std::string& key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, val] : object())
    if (k == key) return &val;
  return nullptr;
}

Value parse(const std::string& text) { return Parser(text).document(); }

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto* esc =
        std::find_if(std::begin(kEscapes), std::end(kEscapes), [c](const auto& x) { return x.second == c && c != '/'; });
    if (esc != std::end(kEscapes)) {
      out += '\\';
      out += esc->first;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string number(double v, int digits) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  if (digits > 0) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
  }
  for (int d = 15; d <= 17; ++d) {
    std::snprintf(buf, sizeof buf, "%.*g", d, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string number(double v, const char* format) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

JsonLine& JsonLine::raw(const std::string& key, const std::string& encoded) {
  body_ += (body_.empty() ? "{" : ",") + quote(key) + ":" + encoded;
  return *this;
}
JsonLine& JsonLine::append(const JsonLine& other) {
  if (!other.body_.empty()) body_ += (body_.empty() ? "{" : ",") + other.body_.substr(1);
  return *this;
}
JsonLine& JsonLine::add(const std::string& key, const std::string& text) { return raw(key, quote(text)); }
JsonLine& JsonLine::add(const std::string& key, const char* text) { return raw(key, quote(text)); }
JsonLine& JsonLine::add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
JsonLine& JsonLine::add(const std::string& key, int value) { return raw(key, std::to_string(value)); }
JsonLine& JsonLine::add(const std::string& key, long value) { return raw(key, std::to_string(value)); }
JsonLine& JsonLine::add(const std::string& key, long long value) { return raw(key, std::to_string(value)); }
JsonLine& JsonLine::add(const std::string& key, unsigned long value) { return raw(key, std::to_string(value)); }
JsonLine& JsonLine::add(const std::string& key, unsigned long long value) { return raw(key, std::to_string(value)); }
JsonLine& JsonLine::add(const std::string& key, double value, int digits) { return raw(key, number(value, digits)); }
JsonLine& JsonLine::add(const std::string& key, double value, const char* format) { return raw(key, number(value, format)); }

namespace {
std::string cannot_write(const std::string& option, const std::string& path) {
  return option + " '" + path + "': cannot write: " + std::strerror(errno);
}
}  // namespace

JsonLinesFile::JsonLinesFile(const std::string& path, const std::string& option) : path_(path), option_(option) {
  if (path.empty()) return;
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) error_ = cannot_write(option_, path_);
}

JsonLinesFile::~JsonLinesFile() {
  if (file_) std::fclose(file_);
}

bool JsonLinesFile::write(const std::string& line) {
  if (!file_ || !error_.empty()) return error_.empty();
  // Flushed line by line: a run that dies keeps the records written so far.
  if (std::fprintf(file_, "%s\n", line.c_str()) < 0 || std::fflush(file_) != 0) error_ = cannot_write(option_, path_);
  return error_.empty();
}

bool JsonLinesFile::close() {
  if (file_) {
    const bool flushed = std::fflush(file_) == 0;
    if (!flushed && error_.empty()) error_ = cannot_write(option_, path_);
    if (std::fclose(file_) != 0 && error_.empty()) error_ = cannot_write(option_, path_);
    file_ = nullptr;
  }
  return error_.empty();
}

std::string check_writable(const std::string& path, const std::string& option) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return cannot_write(option, path);
  std::fclose(f);
  return {};
}

std::string write_lines(const std::string& path, const std::vector<std::string>& lines, const std::string& option) {
  JsonLinesFile file(path, option);
  for (const std::string& line : lines) file.write(line);
  file.close();
  return file.error();
}

}  // namespace armada::programs::json
