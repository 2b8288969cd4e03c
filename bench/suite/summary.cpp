// The headline table (each transport's key figures against the MPI baseline of its pass) and the
// verdict above it (what to conclude: the transport a job here uses, and each transport against
// MPI in words), with the speed-up and noise rules both use. No MPI: unit-tested in tests/bench.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "suite/report.hpp"

namespace armada::bench::suite {

namespace {

/// The headline measures: where each figure and its MPI baseline are found in the records.
struct HeadlineSpec {
  const char* measure;
  const char* group;  // the verdict's line it belongs to
  const char* name;   // its name on that line
  const char* family;
  const char* op;
  const char* metric;
  std::size_t bytes;  // 0: any
  double x;           // < 0: any
  const char* baseline;
  bool lower_is_better;
};
constexpr HeadlineSpec kHeadline[] = {
    {"8 B put latency", "latency", "8 B put", "contig", "put", "latency", 8, -1, "mpi_put_flush", true},
    {"8 B get latency", "latency", "8 B get", "contig", "get", "latency", 8, -1, "mpi_get_flush", true},
    {"1 MiB put bandwidth", "bandwidth", "1 MiB put", "contig", "put", "bandwidth", 1 << 20, -1, "mpi_put_flush", false},
    {"1 MiB get bandwidth", "bandwidth", "1 MiB get", "contig", "get", "bandwidth", 1 << 20, -1, "mpi_get_flush", false},
    {"overlap, 1 MiB get_nb", "overlap", "1 MiB get_nb", "overlap", "get_nb", "overlap", 0, 100, "mpi_rget", false},
    {"fetch-add", "atomics", "fetch-add", "atomic", "fetch_add", "latency", 0, -1, "mpi_fetch_and_op", true},
    {"lock + unlock", "atomics", "lock + unlock", "atomic", "lock_unlock", "latency", 0, -1, "mpi_win_lock_excl", true},
};
/// The verdict's lines, in order.
constexpr const char* kGroups[] = {"latency", "bandwidth", "atomics", "overlap"};

/// When a figure is too noisy to conclude from, and when a speed-up is too small to: the limits
/// of noisy() and speedup_word().
constexpr double kNoisySpread = 0.25;  // max/min - 1 of a time or bandwidth
constexpr double kNoisyPoints = 25;    // max - min of a percentage
constexpr double kOnParRatio = 1.1;    // a speed-up within 10 % of 1
constexpr double kOnParPoints = 5;     // an overlap within 5 points of the baseline's

/// "25 %": a fraction as a percentage, for the texts that state the limits above.
std::string percent(double fraction) { return std::to_string(static_cast<int>(fraction * 100 + 0.5)) + " %"; }

const Record* find_record(const Report& report, int run, const HeadlineSpec& h, const std::string& method) {
  for (const Record& r : report.records)
    if (r.run == run && r.family == h.family && r.op == h.op && r.metric == h.metric && r.method == method &&
        (h.bytes == 0 || r.bytes == h.bytes) && (h.x < 0 || r.x == h.x))
      return &r;
  return nullptr;
}

std::string figure(double v, const std::string& unit, int digits = 4) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g %s", digits, v, unit.c_str());
  return buf;
}

std::string padded(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

/// The record of `method` in run `run` (family, op, metric, bytes; 0 bytes: any), or null.
const Record* find_method(const Report& report, int run, const char* family, const char* op, const char* metric,
                          std::size_t bytes, const std::string& method) {
  const HeadlineSpec h{"", "", "", family, op, metric, bytes, -1, "", true};
  return find_record(report, run, h, method);
}

/// Under the headline of a run with the TCP socket baseline: the link's own limit between the
/// same two ranks, and each Armada figure as a multiple of it (latency: of the socket's one-way
/// time, lower is better; bandwidth: of its stream, higher is better). Only across hosts: on one
/// host Armada moves data through shared memory and a socket through the kernel, no like pair.
std::string link_lines(const Report& report, int run) {
  const Record* one_way = find_method(report, run, "contig", "sendrecv", "latency", 8, "socket_pingpong_half");
  const Record* stream = find_method(report, run, "contig", "sendrecv", "bandwidth", 1 << 20, "socket_stream");
  if (!one_way && !stream) return "";
  if (report.runs.at(static_cast<std::size_t>(run)).mpi_route == "shared memory")
    return "   link limit: not compared (ranks 0 and 1 share a host; a TCP socket is the limit only between hosts)\n";
  std::string out = "   link limit (a plain TCP socket between ranks 0 and 1, same launch):";
  if (one_way) out += " 8 B one-way " + figure(one_way->stats.median, "us") + ";";
  if (stream) out += " 1 MiB stream " + figure(stream->stats.median, "GB/s") + ";";
  out += "\n   armada as a multiple of it:";
  struct Part {
    const char *label, *family, *op, *metric;
    std::size_t bytes;
    const Record* base;  // the socket figure it is a multiple of
  };
  const Part parts[] = {{"8 B put", "contig", "put", "latency", 8, one_way},
                        {"8 B get", "contig", "get", "latency", 8, one_way},
                        {"fetch-add", "atomic", "fetch_add", "latency", 0, one_way},
                        {"1 MiB put", "contig", "put", "bandwidth", 1 << 20, stream},
                        {"1 MiB get", "contig", "get", "bandwidth", 1 << 20, stream}};
  for (const Part& part : parts) {
    const Record* a = find_method(report, run, part.family, part.op, part.metric, part.bytes, "armada");
    if (!a || !part.base || part.base->stats.median == 0) continue;
    char text[64];
    std::snprintf(text, sizeof text, " %s %.3gx;", part.label, a->stats.median / part.base->stats.median);
    out += text;
  }
  return out + "\n";
}

}  // namespace

std::vector<HeadlineRow> headline_rows(const Report& report, int run) {
  const RunConfig& cfg = report.runs.at(static_cast<std::size_t>(run));
  std::vector<HeadlineRow> rows;
  for (const HeadlineSpec& h : kHeadline) {
    HeadlineRow row;
    row.measure = h.measure;
    row.group = h.group;
    row.name = h.name;
    row.unit = h.metric == std::string("bandwidth") ? "GB/s" : h.metric == std::string("overlap") ? "%" : "us";
    row.lower_is_better = h.lower_is_better;
    row.baseline = h.baseline;
    row.armada = find_record(report, run, h, "armada");
    row.mpi = find_record(report, run, h, h.baseline);
    row.other_route = other_route(cfg);
    rows.push_back(row);
  }
  return rows;
}

Speedup speedup(const Record& armada, const Record& baseline, bool lower_is_better) {
  Speedup s;
  const Stats& a = armada.stats;
  const Stats& b = baseline.stats;
  if (armada.metric == "overlap") {  // 0 % is common: a difference, not a ratio
    s.points = true;
    s.median = a.median - b.median;
    s.min = a.min - b.max;
    s.max = a.max - b.min;
  } else if (lower_is_better) {
    if (a.median <= 0 || a.min <= 0 || a.max <= 0) return s;
    s.median = b.median / a.median;
    s.min = b.min / a.max;
    s.max = b.max / a.min;
  } else {
    if (b.median <= 0 || b.min <= 0 || b.max <= 0) return s;
    s.median = a.median / b.median;
    s.min = a.min / b.max;
    s.max = a.max / b.min;
  }
  s.valid = true;
  return s;
}

std::string speedup_text(const Speedup& s) {
  char buf[80];
  if (!s.valid) return "-";
  if (s.points)
    std::snprintf(buf, sizeof buf, "%+.3g pts [%+.3g..%+.3g]", s.median, s.min, s.max);
  else
    std::snprintf(buf, sizeof buf, "%.3gx [%.3g..%.3g]", s.median, s.min, s.max);
  return buf;
}

std::string speedup_word(const Speedup& s) {
  if (!s.valid) return "";
  const double even = s.points ? 0 : 1;
  if (s.points ? std::fabs(s.median) < kOnParPoints : s.median < kOnParRatio && s.median > 1 / kOnParRatio)
    return "on par";
  if (s.min <= even && s.max >= even) return "unclear";  // the repetitions allow either answer
  if (s.points) return s.median > 0 ? "more hidden" : "less hidden";
  return s.median > 1 ? "faster" : "slower";
}

bool noisy(const Record& r) {
  if (r.metric == "overlap") return r.stats.max - r.stats.min > kNoisyPoints;
  return r.stats.min > 0 && r.stats.max / r.stats.min - 1 > kNoisySpread;
}

std::string pass_of_choice(const std::string& choice) {
  if (choice.rfind("none (one node", 0) == 0) return "shm";
  if (choice.empty() || choice.rfind("none", 0) == 0 || choice.rfind("unknown", 0) == 0) return "";
  return choice.substr(0, choice.find(' '));
}

namespace {

bool row_noisy(const HeadlineRow& r) { return (r.armada && noisy(*r.armada)) || (r.mpi && noisy(*r.mpi)); }

/// The headline of one measured pass: its seven rows and the lines under them.
std::string pass_headline(const Report& report, int run) {
  const RunConfig& cfg = report.runs.at(static_cast<std::size_t>(run));
  std::string out = "\n== " + cfg.transport + " (rank 1 through '" + cfg.route + "'" +
                    (cfg.mpi_route.empty() ? "" : "; MPI over " + cfg.mpi_route) + ")\n";
  out += padded("measure", 42) + padded("armada", 14) + padded("MPI baseline", 30) + "speed-up vs MPI [min..max]\n";
  for (const HeadlineRow& r : headline_rows(report, run)) {
    std::string line = padded(r.measure + (r.lower_is_better ? " (lower better)" : " (higher better)"), 42);
    if (!r.armada) {
      out += line + "not measured in this run\n";
      continue;
    }
    line += padded(figure(r.armada->stats.median, r.unit), 14);
    if (!r.mpi) {
      out += line + "no MPI baseline in this run\n";
      continue;
    }
    line += padded(r.baseline + " " + figure(r.mpi->stats.median, r.unit), 30);
    const std::string su = speedup_text(speedup(*r.armada, *r.mpi, r.lower_is_better));
    line += r.other_route ? "other route* (" + su + ")" : su;
    out += line + (row_noisy(r) ? "  noisy" : "") + "\n";
  }
  out += link_lines(report, run);
  if (other_route(cfg))
    out += "   * other route: " + route_note(cfg) + "; the speed-up compares two routes, not two implementations.\n";
  return out;
}

}  // namespace

std::string headline_table(const Report& report) {
  std::string out = "\n######## headline: each figure against its MPI baseline, measured in the same launch ########\n"
                    "(medians; speed-up: how many times Armada beats the MPI baseline, always higher is better, "
                    "[min..max] over the repetitions;\n overlap: % of a blocking get hidden behind a computation as "
                    "long as that get, its speed-up the points more than MPI's; noisy: repetitions spread over " +
                    percent(kNoisySpread) + ")\n";
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    const RunConfig& cfg = report.runs[i];
    if (cfg.status != "ok")
      out += "\n== " + cfg.transport + ": " + cfg.status + "\n";
    else
      out += pass_headline(report, static_cast<int>(i));
  }
  return out;
}

namespace {

/// "8 B put 6.1x faster (0.0079 vs 0.048 us)": one figure of a verdict line, in words with the numbers.
std::string figure_phrase(const HeadlineRow& r) {
  const std::string figures = figure(r.armada->stats.median, "", 3) + "vs " + figure(r.mpi->stats.median, r.unit, 3);
  const Speedup s = speedup(*r.armada, *r.mpi, r.lower_is_better);
  const std::string word = speedup_word(s);
  char text[64] = "";
  if (word == "faster" || word == "more hidden")
    std::snprintf(text, sizeof text, s.points ? "%.3g pts %s" : "%.3gx %s", s.median, word.c_str());
  else if (word == "slower")
    std::snprintf(text, sizeof text, "%.3gx slower", 1 / s.median);
  else if (word == "less hidden")
    std::snprintf(text, sizeof text, "%.3g pts less hidden", -s.median);
  else if (s.valid)
    std::snprintf(text, sizeof text, s.points ? "%s at %+.3g pts" : "%s at %.3gx", word.c_str(), s.median);
  return r.name + " " + text + " (" + figures + ")" + (row_noisy(r) ? " NOISY" : "");
}

/// The verdict's lines for one measured pass: a line per group with a figure measured against MPI.
std::string pass_verdict(const Report& report, int run, bool this_job) {
  const RunConfig& cfg = report.runs.at(static_cast<std::size_t>(run));
  const std::vector<HeadlineRow> rows = headline_rows(report, run);
  std::string out = cfg.transport + (this_job ? " (what a job here uses)" : "") + " against MPI RMA of the same pass" +
                    (other_route(cfg) ? " (other route: " + route_note(cfg) + "; compares routes)" : "") + ":\n";
  bool any = false;
  for (const char* group : kGroups) {
    std::string line;
    for (const HeadlineRow& r : rows)
      if (r.group == group && r.armada && r.mpi) line += (line.empty() ? "" : "; ") + figure_phrase(r);
    if (line.empty()) continue;
    out += "  " + std::string(group) + ": " + line + "\n";
    any = true;
  }
  return any ? out : cfg.transport + ": no figure measured against MPI in this run\n";
}

/// "a job launched like this one ... uses X -> the X figures": which pass answers for a choice.
std::string choice_line(const Report& report, const std::string& who, const std::string& choice) {
  const std::string pass = pass_of_choice(choice);
  bool measured = false;
  for (const RunConfig& r : report.runs) measured = measured || (r.transport == pass && r.status == "ok");
  const std::string where = measured ? "; the " + pass + " figures below apply" : "; not measured in this run";
  return who + " " + choice + (pass.empty() ? "" : where) + "\n";
}

}  // namespace

std::string verdict(const Report& report) {
  std::string out = "\n######## verdict: what to conclude from this launch ########\n";
  if (report.quick)
    out += "SMOKE TEST (--quick): a few short repetitions, to check that the benchmark runs and its data verify; "
           "the figures are not measurements.\n";
  const int ranks = report.runs.empty() ? 0 : report.runs.front().ranks;
  if (!report.job_choice.empty())
    out += choice_line(report,
                       "A job launched like this one (" + std::to_string(ranks) +
                           " ranks, same environment) runs on inter-node transport",
                       report.job_choice);
  if (!report.between_nodes_choice.empty())
    out += choice_line(report, "Between nodes it would run on", report.between_nodes_choice);
  out += "Speed-up = how many times Armada beats the MPI baseline of its pass (medians); on par: within " +
         percent(kOnParRatio - 1) + "; unclear: the repetitions' range reaches both sides.\n";
  const std::string job_pass = pass_of_choice(report.job_choice);
  std::vector<std::string> noisy_names;
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    const RunConfig& cfg = report.runs[i];
    if (cfg.status != "ok") continue;
    out += pass_verdict(report, static_cast<int>(i), cfg.transport == job_pass);
    for (const HeadlineRow& r : headline_rows(report, static_cast<int>(i)))
      if (r.armada && r.mpi && row_noisy(r)) noisy_names.push_back(cfg.transport + " " + r.name);
  }
  if (!noisy_names.empty()) {
    out += "NOISY (repetitions of Armada's or MPI's figure spread over " + percent(kNoisySpread) +
           "; do not conclude from them):";
    for (std::size_t i = 0; i < noisy_names.size(); ++i) out += (i ? ", " : " ") + noisy_names[i];
    out += "\n";
  }
  return out;
}

}  // namespace armada::bench::suite
