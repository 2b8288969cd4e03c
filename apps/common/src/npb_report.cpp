#include "armada/apps/npb_report.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace armada::apps {
namespace {

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string json_number(double x, const char* fmt) { return std::isfinite(x) ? format(fmt, x) : "null"; }

// NPB's report lines: a 19-character label ending in "= ", then the value right-aligned so that
// every value ends in the same column (Fortran's 12x + a12/i12/f12.2).
void line(std::FILE* out, const char* label, const std::string& value) {
  std::fprintf(out, " %-16s= %24s\n", label, value.c_str());
}

}  // namespace

double npb_relative_error(double value, double reference) {
  const double diff = std::fabs(value - reference);
  return reference != 0 ? diff / std::fabs(reference) : diff;
}

bool npb_verify(double value, double reference, double tolerance) {
  const double err = npb_relative_error(value, reference);
  return std::isfinite(err) && err <= tolerance;
}

std::string fortran_e20_13(double x) {
  if (!std::isfinite(x)) return format("%20s", std::isnan(x) ? "NaN" : (x > 0 ? "Infinity" : "-Infinity"));
  if (x == 0) return format("%20s", "0.0000000000000E+00");
  // %.12e gives d.dddddddddddde±X (13 significant digits, correctly rounded); Fortran writes
  // the same digits as 0.ddddddddddddd with the exponent one higher.
  const std::string c = format("%.12e", std::fabs(x));
  const std::size_t e = c.find('e');
  const int exponent = std::atoi(c.c_str() + e + 1) + 1;
  const std::string digits = c.substr(0, 1) + c.substr(2, e - 2);
  const std::string s = std::string(x < 0 ? "-" : "") + "0." + digits + format("E%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return format("%20s", s.c_str());
}

void print_npb_report(std::FILE* out, const NpbResult& r) {
  std::fprintf(out, "\n Benchmark completed\n");
  std::fprintf(out, " VERIFICATION %s\n", r.verified ? "SUCCESSFUL" : "FAILED");
  const std::string name = r.value_name.empty() ? "Value" : r.value_name;
  std::fprintf(out, " %-12s%s\n", (name + " is").c_str(), fortran_e20_13(r.value).c_str());
  std::fprintf(out, " %-12s%s\n", "Reference", fortran_e20_13(r.reference).c_str());
  std::fprintf(out, " %-12s%s  (tolerance %.0e)\n", "Error is", fortran_e20_13(npb_relative_error(r.value, r.reference)).c_str(),
               r.tolerance);

  std::fprintf(out, "\n\n %s Benchmark Completed.\n", r.benchmark.c_str());
  line(out, "Class", std::string(1, r.problem_class));
  if (r.size[1] == 0 && r.size[2] == 0) line(out, "Size", format("%ld", r.size[0]));
  else line(out, "Size", format("%4ldx%4ldx%4ld", r.size[0], r.size[1], r.size[2]));
  line(out, "Iterations", format("%d", r.iterations));
  line(out, "Time in seconds", format("%.2f", r.time_s));
  line(out, "Total processes", format("%d", r.ranks));
  line(out, "Communication", to_string(r.comm));
  line(out, "Mop/s total", format("%.2f", r.mops));
  line(out, "Mop/s/process", format("%.2f", r.ranks > 0 ? r.mops / r.ranks : 0.0));
  line(out, "Operation type", r.operation_type);
  line(out, "Verification", r.verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
  std::fprintf(out, "\n");
  std::fflush(out);
}

std::string npb_json_line(const NpbResult& r) {
  return "{\"benchmark\":\"" + r.benchmark + "\",\"class\":\"" + std::string(1, r.problem_class) +
         "\",\"ranks\":" + std::to_string(r.ranks) + ",\"comm\":\"" + to_string(r.comm) +
         "\",\"time_s\":" + json_number(r.time_s, "%.9g") + ",\"mops\":" + json_number(r.mops, "%.9g") +
         ",\"value\":" + json_number(r.value, "%.15e") + ",\"reference\":" + json_number(r.reference, "%.15e") +
         ",\"verified\":" + (r.verified ? "true" : "false") + "}";
}

bool npb_json_path_writable(const std::string& path, std::string& why) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    why = "--json '" + path + "': cannot write: " + std::strerror(errno);
    return false;
  }
  std::fclose(f);
  return true;
}

bool write_npb_json(const NpbResult& r, const std::string& path, std::string& why) {
  const std::string json = npb_json_line(r);
  std::printf("%s\n", json.c_str());
  std::fflush(stdout);
  if (path.empty()) return true;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f || std::fprintf(f, "%s\n", json.c_str()) < 0 || std::fclose(f) != 0) {
    why = "--json '" + path + "': cannot write: " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace armada::apps
