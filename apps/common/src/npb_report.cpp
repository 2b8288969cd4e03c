#include "armada/apps/npb_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "armada/programs/json.hpp"
#include "npb_build_info.hpp"  // generated: compiler, flags, MPI of this build

namespace armada::apps {
namespace {

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

// NPB's report lines: a 19-character label ending in "= ", then the value right-aligned so that
// every value ends in the same column (Fortran's 12x + a12/i12/f12.2).
void line(std::FILE* out, const char* label, const std::string& value) {
  std::fprintf(out, " %-16s= %24s\n", label, value.c_str());
}

// __DATE__ ("Nov 23 2026") as NPB's compile date ("23 Nov 2026").
std::string compile_date() {
  const std::string d = __DATE__;
  std::string day = d.substr(4, 2);
  if (day[0] == ' ') day.erase(0, 1);
  return day + " " + d.substr(0, 3) + " " + d.substr(7, 4);
}

// The size as NPB prints it: one number, or n1xn2xn3.
std::string size_text(const std::array<long, 3>& size) {
  if (size[1] == 0 && size[2] == 0) return format("%ld", size[0]);
  return format("%4ldx%4ldx%4ld", size[0], size[1], size[2]);
}

// The banner's lines: a label, then the value right-aligned to one column.
void banner_line(std::FILE* out, const std::string& label, const std::string& value) {
  std::fprintf(out, " %-28s%16s\n", (label + ":").c_str(), value.c_str());
}

}  // namespace

std::string npb_seconds(double t) {
  if (!std::isfinite(t) || t <= 0) return format("%.2f", t);
  const int decimals = std::clamp(3 - static_cast<int>(std::floor(std::log10(t))), 2, 9);
  return format("%.*f", decimals, t);
}

void print_npb_banner(std::FILE* out, const NpbBanner& b) {
  std::fprintf(out, "\n\n NAS Parallel Benchmarks %s -- %s Benchmark (Armada %s)\n\n", npb_version,
               b.benchmark.c_str(), ARMADA_NPB_ARMADA_VERSION);
  banner_line(out, "Size", size_text(b.size));
  banner_line(out, "Class", std::string(1, b.problem_class));
  banner_line(out, "Iterations", format("%d", b.iterations));
  banner_line(out, "Number of processes", format("%d", b.ranks));
  banner_line(out, "Communication", to_string(b.comm));
  for (const auto& [label, value] : b.details) banner_line(out, label, value);
  std::fprintf(out, "\n");
  std::fflush(out);
}

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
  line(out, "Size", size_text(r.size));
  line(out, "Iterations", format("%d", r.iterations));
  line(out, "Time in seconds", npb_seconds(r.time_s));
  line(out, "Total processes", format("%d", r.ranks));
  line(out, "Communication", to_string(r.comm));
  line(out, "Mop/s total", format("%.2f", r.mops));
  line(out, "Mop/s/process", format("%.2f", r.ranks > 0 ? r.mops / r.ranks : 0.0));
  line(out, "Operation type", r.operation_type);
  line(out, "Verification", r.verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
  line(out, "Version", npb_version);
  line(out, "Compile date", compile_date());
  // NPB's C benchmarks' block, for this C++ build.
  std::fprintf(out, "\n Compile options:\n");
  std::fprintf(out, "    CXX          = %s\n", ARMADA_NPB_CXX);
  std::fprintf(out, "    CXXLINK      = $(CXX)\n");
  std::fprintf(out, "    CMPI_LIB     = %s\n", ARMADA_NPB_MPI_LIB);
  std::fprintf(out, "    CMPI_INC     = %s\n", ARMADA_NPB_MPI_INC);
  std::fprintf(out, "    CXXFLAGS     = %s\n", ARMADA_NPB_CXXFLAGS);
  std::fprintf(out, "    CXXLINKFLAGS = %s\n", ARMADA_NPB_LINKFLAGS);
  std::fprintf(out, "    RAND         = randi8\n");
  std::fprintf(out, "    ARMADA       = %s (%s)\n", ARMADA_NPB_ARMADA_VERSION, ARMADA_NPB_BUILD_TYPE);
  std::fprintf(out, "\n");
  std::fflush(out);
}

std::string npb_json_line(const NpbResult& r) {
  programs::json::JsonLine line;
  line.add("benchmark", r.benchmark).add("class", std::string(1, r.problem_class)).add("ranks", r.ranks);
  line.add("comm", to_string(r.comm)).add("time_s", r.time_s, "%.9g").add("mops", r.mops, "%.9g");
  line.add("value", r.value, "%.15e").add("reference", r.reference, "%.15e").add("verified", r.verified);
  for (const auto& [key, value] : r.extra) line.add(key, value, 6);
  return line.str();
}

bool npb_json_path_writable(const std::string& path, std::string& why) {
  why = programs::json::check_writable(path);
  return why.empty();
}

bool write_npb_json(const NpbResult& r, const std::string& path, std::string& why) {
  const std::string json = npb_json_line(r);
  std::printf("%s\n", json.c_str());
  std::fflush(stdout);
  if (path.empty()) return true;
  why = programs::json::write_lines(path, {json});
  return why.empty();
}

}  // namespace armada::apps
