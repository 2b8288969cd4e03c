#include "suite/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "armada/programs/json.hpp"
#include "common/results.hpp"

namespace armada::bench::suite {

namespace json = programs::json;

namespace {

using json::number;
using json::quote;

std::string num(std::size_t v) { return std::to_string(v); }

/// A load average; null when unknown (negative).
std::string load(double v) { return v < 0 ? "null" : number(v); }

std::string run_fields(const RunConfig& c) {
  return "\"transport\":" + quote(c.transport) + ",\"node_size\":" + std::to_string(c.node_size) +
         ",\"ranks\":" + std::to_string(c.ranks) + ",\"mpi\":" + quote(c.mpi) + ",\"host\":" + quote(c.host) +
         ",\"date\":" + quote(c.date);
}

const json::Value& member(const json::Value& v, const char* key) {
  const json::Value* m = v.find(key);
  if (!m) throw std::runtime_error(std::string("results file: missing field '") + key + "'");
  return *m;
}

std::string str(const json::Value& v, const char* key) { return member(v, key).string(); }
double dbl(const json::Value& v, const char* key) {
  const json::Value& m = member(v, key);
  return m.is_null() ? 0.0 : m.number();
}
std::size_t size(const json::Value& v, const char* key) { return static_cast<std::size_t>(dbl(v, key)); }

}  // namespace

std::string to_json(const Report& report) {
  std::string out = "{\"tool\":\"armada-bench\",\"format\":1,\"command\":" + quote(report.command) +
                    ",\"started\":" + quote(report.started) + ",\"quick\":" + (report.quick ? "true" : "false") +
                    ",\"job_choice\":" + quote(report.job_choice) +
                    ",\"between_nodes_choice\":" + quote(report.between_nodes_choice) + ",\n\"runs\":[";
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    const RunConfig& c = report.runs[i];
    out += std::string(i ? ",\n " : "\n ") + "{" + run_fields(c) + ",\"status\":" + quote(c.status) +
           ",\"route\":" + quote(c.route) + ",\"mpi_route\":" + quote(c.mpi_route) + ",\"cpu\":" + quote(c.cpu) +
           ",\"nodes\":" + std::to_string(c.nodes) +
           ",\"loadavg_start\":" + load(c.loadavg_start) + ",\"loadavg_end\":" + load(c.loadavg_end) + "}";
  }
  out += "],\n\"results\":[";
  for (std::size_t i = 0; i < report.records.size(); ++i) {
    const Record& r = report.records[i];
    if (r.run < 0 || static_cast<std::size_t>(r.run) >= report.runs.size())
      throw std::logic_error("record " + std::to_string(i) + " names run " + std::to_string(r.run));
    out += std::string(i ? ",\n " : "\n ") + "{" + run_fields(report.runs[static_cast<std::size_t>(r.run)]) +
           ",\"run\":" + std::to_string(r.run) + ",\"family\":" + quote(r.family) + ",\"op\":" + quote(r.op) +
           ",\"method\":" + quote(r.method) + ",\"metric\":" + quote(r.metric) + ",\"unit\":" + quote(r.unit) +
           ",\"bytes\":" + num(r.bytes) + ",\"seg_bytes\":" + num(r.seg_bytes) + ",\"nseg\":" + num(r.nseg) +
           ",\"x\":" + number(r.x) + ",\"median\":" + number(r.stats.median) + ",\"min\":" + number(r.stats.min) +
           ",\"max\":" + number(r.stats.max) + ",\"p25\":" + number(r.p25) + ",\"p75\":" + number(r.p75) +
           ",\"reps\":" + num(r.stats.count) + ",\"iterations\":" + num(r.iterations) +
           ",\"verified\":" + (r.verified ? "true" : "false") + "}";
  }
  out += "]}\n";
  return out;
}

Report from_json(const std::string& text) {
  const json::Value doc = json::parse(text);
  if (!doc.is_object() || !doc.find("tool") || doc.find("tool")->string() != "armada-bench")
    throw std::runtime_error("results file: not an armada-bench results document");
  Report report;
  report.command = str(doc, "command");
  report.started = str(doc, "started");
  // Absent in files written before the verdict: a quick run is then known by its command line.
  const json::Value* quick = doc.find("quick");
  report.quick = quick ? quick->boolean() : report.command.find("--quick") != std::string::npos;
  if (const json::Value* m = doc.find("job_choice")) report.job_choice = m->string();
  if (const json::Value* m = doc.find("between_nodes_choice")) report.between_nodes_choice = m->string();
  for (const json::Value& v : member(doc, "runs").array()) {
    RunConfig c;
    c.transport = str(v, "transport");
    c.status = str(v, "status");
    c.route = str(v, "route");
    if (const json::Value* m = v.find("mpi_route")) c.mpi_route = m->string();  // absent in older files
    if (const json::Value* m = v.find("cpu")) c.cpu = m->string();
    c.node_size = static_cast<int>(dbl(v, "node_size"));
    c.ranks = static_cast<int>(dbl(v, "ranks"));
    c.nodes = static_cast<int>(dbl(v, "nodes"));
    c.mpi = str(v, "mpi");
    c.host = str(v, "host");
    c.date = str(v, "date");
    c.loadavg_start = member(v, "loadavg_start").is_null() ? -1 : dbl(v, "loadavg_start");
    c.loadavg_end = member(v, "loadavg_end").is_null() ? -1 : dbl(v, "loadavg_end");
    report.runs.push_back(c);
  }
  for (const json::Value& v : member(doc, "results").array()) {
    Record r;
    r.run = static_cast<int>(dbl(v, "run"));
    if (r.run < 0 || static_cast<std::size_t>(r.run) >= report.runs.size())
      throw std::runtime_error("results file: a result names run " + std::to_string(r.run) + ", which is not listed");
    r.family = str(v, "family");
    r.op = str(v, "op");
    r.method = str(v, "method");
    r.metric = str(v, "metric");
    r.unit = str(v, "unit");
    r.bytes = size(v, "bytes");
    r.seg_bytes = size(v, "seg_bytes");
    r.nseg = size(v, "nseg");
    r.x = dbl(v, "x");
    r.stats.median = dbl(v, "median");
    r.stats.min = dbl(v, "min");
    r.stats.max = dbl(v, "max");
    r.stats.count = size(v, "reps");
    r.p25 = dbl(v, "p25");
    r.p75 = dbl(v, "p75");
    r.iterations = size(v, "iterations");
    r.verified = member(v, "verified").boolean();
    report.records.push_back(r);
  }
  return report;
}

std::string csv_header() {
  return "transport,node_size,ranks,family,op,method,metric,unit,bytes,seg_bytes,nseg,x,median,min,max,p25,p75,"
         "reps,iterations,verified,mpi,host,date\n";
}

std::string to_csv(const Report& report) {
  std::string out = csv_header();
  for (const Record& r : report.records) {
    const RunConfig& c = report.runs.at(static_cast<std::size_t>(r.run));
    out += csv_cell(c.transport) + "," + std::to_string(c.node_size) + "," + std::to_string(c.ranks) + "," +
           csv_cell(r.family) + "," + csv_cell(r.op) + "," + csv_cell(r.method) + "," + csv_cell(r.metric) + "," +
           csv_cell(r.unit) + "," + num(r.bytes) + "," + num(r.seg_bytes) + "," + num(r.nseg) + "," + number(r.x) +
           "," + number(r.stats.median) + "," + number(r.stats.min) + "," + number(r.stats.max) + "," +
           number(r.p25) + "," + number(r.p75) + "," + num(r.stats.count) + "," + num(r.iterations) + "," +
           (r.verified ? "yes" : "no") + "," + csv_cell(c.mpi) + "," + csv_cell(c.host) + "," + csv_cell(c.date) +
           "\n";
  }
  return out;
}

namespace {

/// The curve of plot `p` that record `r` belongs to, or null (a plot without curves: none).
const Curve* curve_of(const PlotSpec& p, const Record& r) {
  for (const Curve& c : p.curves)
    if (c.op == r.op && c.method == r.method) return &c;
  return nullptr;
}

/// Whether record `r` is drawn in plot `p`.
bool in_plot(const PlotSpec& p, const Record& r) {
  return r.family == p.family && r.metric == p.metric && (p.seg_bytes == 0 || r.seg_bytes == p.seg_bytes) &&
         (p.run < 0 || r.run == p.run) && (p.ops.empty() || std::find(p.ops.begin(), p.ops.end(), r.op) != p.ops.end()) &&
         (p.curves.empty() || curve_of(p, r)) && !(p.logx && r.x <= 0);  // not drawable on a log axis
}

/// The contiguous plots' curves for `op`: Armada, MPI one-sided, MPI two-sided, and the
/// local copy on one host or the TCP socket (the link's limit) across hosts.
std::vector<Curve> contig_curves(const std::string& op, const std::string& metric, bool across_hosts) {
  const bool latency = metric == "latency";
  if (op == "acc")
    return {{op, "armada", "Armada accumulate"}, {op, "mpi_acc_flush", "MPI_Accumulate + flush"},
            {op, "local_axpy", "local axpy (one rank's own memory)"}};
  const std::string mpi = op == "put" ? "MPI_Put + flush" : "MPI_Get + flush";
  std::vector<Curve> c{{op, "armada", "Armada " + op}, {op, "mpi_" + op + "_flush", mpi}};
  c.push_back(latency ? Curve{"sendrecv", "mpi_pingpong_half", "MPI send/recv (half a round trip)"}
                      : Curve{"sendrecv", "mpi_stream", "MPI send/recv, streamed"});
  if (across_hosts)
    c.push_back(latency ? Curve{"sendrecv", "socket_pingpong_half", "TCP socket (half a round trip)"}
                        : Curve{"sendrecv", "socket_stream", "TCP socket, streamed"});
  else
    c.push_back({op, "memcpy", "memcpy (one rank's own memory)"});
  return c;
}

/// The plots of one pass, before checking which have data.
std::vector<PlotSpec> pass_plots(const RunConfig& run) {
  std::vector<PlotSpec> all;
  const bool across_hosts = run.mpi_route == "network";
  const std::string units[] = {"time per operation (us)", "bandwidth (GB/s)"};
  for (const char* op : {"put", "get", "acc"}) {
    const std::string o = op;
    const std::vector<std::string> ops = o == "acc" ? std::vector<std::string>{o} : std::vector<std::string>{o, "sendrecv"};
    for (const std::string metric : {"latency", "bandwidth"}) {
      PlotSpec p{"contig_" + o + "_" + metric + ".png", "contiguous " + o + ", " + metric + " against MPI; median, bars min-max",
                 "contig", metric, 0, ops, "bytes per operation", units[metric == "bandwidth"], true, true, true};
      p.curves = contig_curves(o, metric, across_hosts);
      all.push_back(p);
    }
  }
  for (const char* op : {"put", "get"})
    for (std::size_t seg : {16, 1024}) {
      const std::string o = op, size = seg == 16 ? "16 B" : "1 KiB";
      PlotSpec p{"strided_" + o + "_" + (seg == 16 ? "16B" : "1KiB") + ".png",
                 "strided " + o + " of " + size + " segments: one request against one " + o + " per segment",
                 "strided", "bandwidth", seg, {o}, "segments", "bandwidth (GB/s)", true, true, false};
      p.curves = {{o, "strided", "Armada strided " + o + " (one request)"}, {o, "vector", "Armada I/O vector " + o},
                  {o, "per_segment", "one Armada " + o + " per segment"}, {o, "contiguous", "Armada contiguous " + o + ", same bytes"}};
      all.push_back(p);
    }
  PlotSpec overlap{"overlap.png", "nonblocking get of 1 MiB: share of its time hidden behind computation", "overlap",
                   "overlap", 0, {}, "computation (% of a blocking get)", "hidden (%)", false, false, false};
  overlap.curves = {{"get_nb", "armada", "Armada get_nb, target idle"},
                    {"get_nb", "armada_target_busy", "Armada get_nb, target computing"},
                    {"get_nb", "mpi_rget", "MPI_Rget"}};
  all.push_back(overlap);
  PlotSpec fence{"fence.png", "an 8-byte put to each of k targets, then completion", "fence", "latency", 0, {},
                 "targets", "time per round (us)", true, true, false};
  fence.curves = {{"put_fence", "fence_all", "Armada fence_all"}, {"put_fence", "fence_each", "Armada fence to each target"},
                  {"put_fence", "fence_all_idle", "Armada fence_all, nothing to complete"},
                  {"put_fence", "mpi_flush_all", "MPI_Win_flush_all"}};
  all.push_back(fence);
  return all;
}

}  // namespace

std::vector<PlotSpec> standard_plots(const Report& report) {
  std::vector<PlotSpec> out;
  for (std::size_t run = 0; run < report.runs.size(); ++run) {
    const RunConfig& c = report.runs[run];
    if (c.status != "ok") continue;
    const std::string smoke = report.quick ? "SMOKE TEST (--quick: short repetitions, not a measurement); " : "";
    const std::string about = "\n" + smoke + "host " + c.host + (c.cpu.empty() ? "" : ", " + c.cpu) + ", " + std::to_string(c.ranks) +
                              " ranks, " + c.date;
    for (PlotSpec p : pass_plots(c)) {
      p.run = static_cast<int>(run);
      p.file = c.transport + "_" + p.file;
      p.title = c.transport + " pass: " + p.title + about;
      // A plot needs at least two x values (one point is a table row, not a curve).
      std::vector<double> xs;
      for (const Record& r : report.records)
        if (in_plot(p, r) && std::find(xs.begin(), xs.end(), r.x) == xs.end()) xs.push_back(r.x);
      if (xs.size() >= 2) out.push_back(p);
    }
  }
  return out;
}

bool is_mpi_baseline(const std::string& method) { return method.rfind("mpi_", 0) == 0; }

bool other_route(const RunConfig& run) {
  if (run.route == "shm") return run.mpi_route == "network";
  if (run.route == "server") return run.mpi_route == "shared memory";
  return false;  // mpi-rma is MPI itself; unknown routes are not guessed
}

std::string baseline_route(const RunConfig& run, const std::string& method) {
  if (is_mpi_baseline(method)) return run.mpi_route;
  if (method.rfind("peer_", 0) == 0) return "shared memory";
  if (method == "memcpy" || method.rfind("local_", 0) == 0) return "local memory";
  return "";
}

bool baseline_other_route(const RunConfig& run, const std::string& method) {
  if (is_mpi_baseline(method)) return other_route(run);
  return !baseline_route(run, method).empty() && run.route != "shm";
}

std::string route_note(const RunConfig& run) {
  const std::string armada = run.route == "shm" ? "over shared memory" : "through the " + run.route + " transport";
  return "Armada " + armada + ", the MPI baseline " + (run.mpi_route == "network" ? "over the network" : "over " + run.mpi_route);
}

std::string curve_label(const Report& report, const Record& r) {
  const RunConfig& run = report.runs.at(static_cast<std::size_t>(r.run));
  if (baseline_other_route(run, r.method))
    return r.op + " " + r.method + " [" + run.transport + " pass; baseline over " + baseline_route(run, r.method) + "]";
  return r.op + " " + r.method + " [" + run.transport + "]";
}

namespace {

/// A record's name in plot `p`'s legend: its curve's words (and, for a baseline that travels
/// another route than Armada, which one), or curve_label for a plot without curves.
std::string plot_label(const Report& report, const PlotSpec& p, const Record& r) {
  const Curve* c = curve_of(p, r);
  if (!c) return curve_label(report, r);
  const RunConfig& run = report.runs.at(static_cast<std::size_t>(r.run));
  if (!baseline_other_route(run, r.method)) return c->words;
  return c->words + " (over " + baseline_route(run, r.method) + "; Armada through the " + run.route + " transport)";
}

/// The records of plot `p`, grouped by curve label (in order of first appearance).
struct Curves {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Record*>> points;
  std::vector<double> xs;  // every x of the plot, sorted
};

Curves curves_of(const Report& report, const PlotSpec& p) {
  Curves c;
  for (const Record& r : report.records) {
    if (!in_plot(p, r)) continue;
    const std::string label = plot_label(report, p, r);
    if (!c.points.count(label)) c.order.push_back(label);
    c.points[label].push_back(&r);
    if (std::find(c.xs.begin(), c.xs.end(), r.x) == c.xs.end()) c.xs.push_back(r.x);
  }
  std::sort(c.xs.begin(), c.xs.end());
  for (auto& [label, pts] : c.points)
    std::stable_sort(pts.begin(), pts.end(), [](const Record* a, const Record* b) { return a->x < b->x; });
  return c;
}

/// "[lo:hi]" around the values, with a margin (a factor on a log axis).
std::string range(double lo, double hi, bool log) {
  if (log) {
    lo /= 1.25;
    hi *= 1.25;
  } else {
    const double margin = hi > lo ? (hi - lo) * 0.05 : 1;
    lo -= margin;
    hi += margin;
  }
  return "[" + number(lo, 6) + ":" + number(hi, 6) + "]";
}

int index_of(std::vector<std::string>& v, const std::string& key) {
  const auto it = std::find(v.begin(), v.end(), key);
  if (it != v.end()) return static_cast<int>(it - v.begin());
  v.push_back(key);
  return static_cast<int>(v.size() - 1);
}

/// The colour and point type of each method, the same in every plot of every report (Armada blue,
/// MPI one-sided red, MPI two-sided orange and brown, local copies green, the TCP socket grey).
struct MethodStyle {
  const char* method;
  const char* colour;
  int point;
};
constexpr MethodStyle kMethodStyles[] = {
    {"armada", "#1f77b4", 7},              {"armada_put_fence", "#17becf", 9},   {"armada_after_idle_1ms", "#393b79", 11},
    {"armada_scale2", "#17becf", 9},       {"armada_target_busy", "#9467bd", 13},
    {"mpi_put_flush", "#d62728", 5},       {"mpi_get_flush", "#d62728", 5},      {"mpi_acc_flush", "#d62728", 5},
    {"mpi_rget", "#d62728", 5},            {"mpi_flush_all", "#d62728", 5},      {"mpi_fetch_and_op", "#d62728", 5},
    {"mpi_win_lock_excl", "#d62728", 5},   {"mpi_pingpong_half", "#ff7f0e", 9},  {"mpi_stream", "#8c564b", 11},
    {"socket_pingpong_half", "#7f7f7f", 13}, {"socket_pingpong_sleep_half", "#c7c7c7", 13},
    {"socket_stream", "#bcbd22", 3},       {"memcpy", "#2ca02c", 2},
    {"local_axpy", "#2ca02c", 4},          {"strided", "#1f77b4", 7},            {"vector", "#9467bd", 9},
    {"per_segment", "#e377c2", 11},        {"contiguous", "#2ca02c", 5},         {"strided_ls2", "#17becf", 13},
    {"fence_all", "#1f77b4", 7},           {"fence_each", "#9467bd", 9},         {"fence_all_idle", "#393b79", 11},
};
/// Methods not in the table: a colour and point by their place among the report's other methods.
constexpr const char* kOtherColours[] = {"#e6550d", "#31a354", "#756bb1", "#636363", "#843c39", "#3182bd"};
constexpr int kOtherPoints[] = {1, 2, 3, 4, 6, 8};
/// One dash type per op, in this order (others after them).
constexpr const char* kOps[] = {"put", "get", "acc", "sendrecv", "get_nb", "put_fence"};
constexpr const char* kDashes[] = {"1", "2", "3", "(12,4,2,4)", "1", "1", "(2,8)", "(20,6)"};

/// "lc rgb "#..." dt D pt P" of a curve. `others`: the report's methods missing in kMethodStyles, sorted.
std::string curve_style(const Record& r, const std::vector<std::string>& others, std::vector<std::string>& ops) {
  std::string colour;
  int point = 0;
  for (const MethodStyle& m : kMethodStyles)
    if (r.method == m.method) colour = m.colour, point = m.point;
  if (colour.empty()) {
    const auto i = static_cast<std::size_t>(std::find(others.begin(), others.end(), r.method) - others.begin());
    colour = kOtherColours[i % std::size(kOtherColours)];
    point = kOtherPoints[i % std::size(kOtherPoints)];
  }
  const auto op = static_cast<std::size_t>(index_of(ops, r.op));
  return "lc rgb \"" + colour + "\" dt " + kDashes[op % std::size(kDashes)] + " pt " + std::to_string(point);
}

/// The report's methods that kMethodStyles does not list, sorted (their colours then do not
/// depend on which plot they first appear in).
std::vector<std::string> other_methods(const Report& report) {
  std::vector<std::string> out;
  for (const Record& r : report.records) {
    bool listed = false;
    for (const MethodStyle& m : kMethodStyles) listed = listed || r.method == m.method;
    if (!listed && std::find(out.begin(), out.end(), r.method) == out.end()) out.push_back(r.method);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// "8 B", "4 KiB", "1 MiB": a byte count as an axis label.
std::string bytes_label(double x) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (x >= 1024 && u < 3) x /= 1024, ++u;
  return number(x) + " " + units[u];
}

/// The x tics: one labelled tic at every measured x (log axes would skip some, the 8 B one first).
std::string xtics(const PlotSpec& p, const std::vector<double>& xs) {
  std::string s = "set xtics (";
  for (std::size_t i = 0; i < xs.size(); ++i)
    s += std::string(i ? ", " : "") + json::quote(p.bytes_axis ? bytes_label(xs[i]) : number(xs[i])) + " " + number(xs[i], 9);
  return s + ")\n";
}

/// The y tics of a log axis from lo to hi, every one labelled: 1-2-5 per decade, or 1..9 when
/// the range is short of a decade (gnuplot's own labels only the powers of ten).
std::string log_ytics(double lo, double hi) {
  std::vector<double> tics;
  for (const std::vector<double>& steps : {std::vector<double>{1, 2, 5}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    tics.clear();
    for (double decade = std::pow(10, std::floor(std::log10(lo))); decade <= hi; decade *= 10)
      for (double m : steps)
        if (m * decade >= lo && m * decade <= hi) tics.push_back(m * decade);
    if (tics.size() >= 3) break;
  }
  std::string s = "set ytics (";
  for (std::size_t i = 0; i < tics.size(); ++i) s += std::string(i ? ", " : "") + number(tics[i], 6);
  return s + ")\n";
}

constexpr double kSideStep = 0.012;

/// The x range: fitted to the data drawn, wide enough for the points drawn to the side.
std::string x_range(bool quick, const PlotSpec& p, const std::vector<double>& xs, std::size_t n) {
  if (!quick || n < 2 || xs.size() < 2) return range(xs.front(), xs.back(), p.logx);
  const double pad = static_cast<double>(n - 1) / 2 * kSideStep + 0.03;  // of the axis's span
  if (p.logx) {
    const double f = std::pow(xs.back() / xs.front(), pad);
    return "[" + number(xs.front() / f, 6) + ":" + number(xs.back() * f, 6) + "]";
  }
  const double d = (xs.back() - xs.front()) * pad;
  return "[" + number(xs.front() - d, 6) + ":" + number(xs.back() + d, 6) + "]";
}

/// The x column of curve i of n: for points only (--quick), each curve a little to the side of
/// the measured x (kSideStep of the axis per curve), so that points and bars at one x do not hide each
/// other; lines are drawn at the x measured.
std::string x_column(bool quick, const PlotSpec& p, const std::vector<double>& xs, std::size_t i, std::size_t n) {
  if (!quick || n < 2) return "1";
  const double step = (static_cast<double>(i) - static_cast<double>(n - 1) / 2) * kSideStep;
  if (p.logx) return "($1*" + number(std::pow(xs.back() / xs.front(), step), 6) + ")";
  return "($1+" + number((xs.back() - xs.front()) * step, 6) + ")";
}

/// The datablock of one curve; widens [xlo, xhi] x [ylo, yhi] to its points.
std::string datablock(const std::string& name, const std::vector<const Record*>& pts, const std::vector<double>& xs,
                      bool logy, double& ylo, double& yhi, bool& first) {
  std::string s = name + " << EOD\n";
  // A blank line where the curve skips an x of the sweep: gnuplot breaks the line there.
  auto at = std::find(xs.begin(), xs.end(), pts.front()->x);
  for (const Record* r : pts) {
    if (*at != r->x) s += "\n";
    at = std::find(xs.begin(), xs.end(), r->x) + 1;
    s += number(r->x, 9) + " " + number(r->stats.median, 9) + " " + number(r->stats.min, 9) + " " +
         number(r->stats.max, 9) + "\n";
    const double lo = logy && r->stats.min <= 0 ? r->stats.median : r->stats.min;
    if (first || lo < ylo) ylo = lo;
    if (first || r->stats.max > yhi) yhi = r->stats.max;
    first = false;
  }
  return s + "EOD\n";
}

}  // namespace

std::string gnuplot_script(const Report& report, const std::vector<PlotSpec>& plots, const std::string& terminal,
                           const std::string& dir) {
  std::string s = "# armada-bench plots; run with: gnuplot <this file>\n";
  s += "# One colour and point type per method (the same in every plot), one dash type per op; error bars min-max.\n";
  s += "set terminal " + terminal + " size 1400,1000\n";
  s += "set key below center horizontal maxcols 3 noenhanced\nset grid\nset termoption noenhanced\n";
  const std::vector<std::string> others = other_methods(report);
  // A smoke test's few short repetitions are drawn as points: no line suggests a measured trend.
  const std::string with = report.quick ? "yerrorbars" : "yerrorlines";
  int block = 0;
  for (const PlotSpec& p : plots) {
    const Curves c = curves_of(report, p);
    if (c.order.empty()) continue;
    std::vector<std::string> names;
    double ylo = 0, yhi = 0;
    bool first = true;
    for (const std::string& label : c.order) {
      names.push_back("$d" + std::to_string(block++));
      s += datablock(names.back(), c.points.at(label), c.xs, p.logy, ylo, yhi, first);
    }
    s += "set output " + json::quote(dir.empty() ? p.file : dir + "/" + p.file) + "\n";
    s += "set title " + json::quote(p.title) + "\n";
    s += "set xlabel " + json::quote(p.xlabel) + "\nset ylabel " + json::quote(p.ylabel) + "\n";
    s += p.logx ? "set logscale x 2\n" : "unset logscale x\n";
    s += p.logy ? "set logscale y\n" : "unset logscale y\n";
    s += "set xrange " + x_range(report.quick, p, c.xs, names.size()) + "\nset yrange " + range(ylo, yhi, p.logy) + "\n";
    s += xtics(p, c.xs);
    s += p.logy ? log_ytics(ylo / 1.25, yhi * 1.25) : "set ytics autofreq\n";
    s += "set format y \"%g\"\n";
    std::vector<std::string> ops(std::begin(kOps), std::end(kOps));
    s += "plot ";
    for (std::size_t i = 0; i < names.size(); ++i) {
      const Record& r = *c.points.at(c.order[i]).front();
      s += std::string(i ? ", \\\n     " : "") + names[i] + " using " + x_column(report.quick, p, c.xs, i, names.size()) +
           ":2:3:4 with " + with + " " + curve_style(r, others, ops) + " title " + json::quote(c.order[i]);
    }
    s += "\n";
  }
  s += "unset output\n";
  return s;
}

namespace {

/// A pass's name in the headline figure's legend, in words.
std::string pass_words(const RunConfig& c) {
  std::string what = c.transport == "shm"      ? "shared memory"
                     : c.transport == "server" ? "node server thread (MPI two-sided)"
                     : c.transport == "mpi-rma" ? "MPI-3 windows"
                     : c.transport == "rdma"    ? "UCX one-sided"
                                                : c.transport;
  const std::string route = c.mpi_route.empty() ? "in the same launch" : c.mpi_route == "network" ? "over the network"
                                                                                                : "over " + c.mpi_route;
  std::string label = "Armada " + c.transport + " transport (" + what + ") vs MPI " + route;
  return other_route(c) ? label + ": different routes" : label;
}

}  // namespace

namespace {

/// One series of the headline figure: a speed-up per headline measure.
struct HeadlineSeries {
  std::string title, transport;
  std::vector<std::pair<std::string, Speedup>> points;  // measure, speed-up
};

/// Armada against the MPI baseline of its pass, for each measured pass (at most 4).
std::vector<HeadlineSeries> mpi_series(const Report& report) {
  std::vector<HeadlineSeries> out;
  for (std::size_t run = 0; run < report.runs.size() && out.size() < 4; ++run) {
    if (report.runs[run].status != "ok") continue;
    HeadlineSeries hs{pass_words(report.runs[run]), report.runs[run].transport, {}};
    for (const HeadlineRow& r : headline_rows(report, static_cast<int>(run)))
      if (r.armada && r.mpi && r.unit != "%") hs.points.emplace_back(r.measure, speedup(*r.armada, *r.mpi, r.lower_is_better));
    if (!hs.points.empty()) out.push_back(hs);
  }
  return out;
}

const Record* find_in(const Report& report, int run, const char* family, const char* op, const char* metric,
                      std::size_t bytes, const char* method) {
  for (const Record& r : report.records)
    if (r.run == run && r.family == family && r.op == op && r.metric == metric && r.method == method &&
        (bytes == 0 || r.bytes == bytes))
      return &r;
  return nullptr;
}

/// Across hosts only: Armada against the TCP socket between the same two ranks (the link's own
/// limit), for the first pass whose MPI crosses the network and that measured the socket.
std::vector<HeadlineSeries> link_series(const Report& report) {
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    const int run = static_cast<int>(i);
    const RunConfig& c = report.runs[i];
    const Record* one_way = find_in(report, run, "contig", "sendrecv", "latency", 8, "socket_pingpong_half");
    const Record* stream = find_in(report, run, "contig", "sendrecv", "bandwidth", 1 << 20, "socket_stream");
    if (c.status != "ok" || c.mpi_route != "network" || (!one_way && !stream)) continue;
    HeadlineSeries hs{"Armada " + c.transport + " transport vs a TCP socket between the same two hosts (the link's own limit)",
                      c.transport + " vs socket", {}};
    for (const HeadlineRow& r : headline_rows(report, run)) {
      // The figures the headline table compares with the link (not lock + unlock: two operations).
      const Record* base = r.measure == "lock + unlock" ? nullptr : r.unit == "us" ? one_way : r.unit == "GB/s" ? stream : nullptr;
      if (r.armada && base) hs.points.emplace_back(r.measure, speedup(*r.armada, *base, r.lower_is_better));
    }
    if (!hs.points.empty()) return {hs};
  }
  return {};
}

}  // namespace

std::string headline_gnuplot(const Report& report, const std::string& terminal, const std::string& png) {
  std::vector<HeadlineSeries> all = mpi_series(report);
  for (HeadlineSeries& hs : link_series(report)) all.push_back(hs);
  std::vector<std::string> measures;  // the x categories, in the headline table's order
  std::string blocks, plot, transports;
  double lo = 1, hi = 1;
  int series = 0;
  for (const HeadlineSeries& hs : all) {
    std::string block;
    for (const auto& [measure, su] : hs.points) {
      if (!su.valid || su.min <= 0) continue;
      const double x = index_of(measures, measure) + 0.12 * (series - (all.size() - 1) / 2.0);  // side by side
      block += number(x, 6) + " " + number(su.median, 6) + " " + number(su.min, 6) + " " + number(su.max, 6) + "\n";
      lo = std::min(lo, su.min), hi = std::max(hi, su.max);
    }
    if (block.empty()) continue;
    const std::string name = "$h" + std::to_string(series);
    blocks += name + " << EOD\n" + block + "EOD\n";
    constexpr int kFilledPoints[] = {7, 5, 9, 13, 11};  // circle, square, triangle, diamond, triangle down
    plot += std::string(plot.empty() ? "plot " : ", \\\n     ") + name + " using 1:2:3:4 with yerrorbars lw 2 pt " +
            std::to_string(kFilledPoints[series % 5]) + " ps 1.5 lc rgb \"" + kOtherColours[series % 6] + "\" title " +
            quote(hs.title);
    transports += std::string(transports.empty() ? "" : ", ") + hs.transport;
    ++series;
  }
  if (series == 0) return "";
  const RunConfig& c = report.runs.front();
  std::string s = "\n# The headline figure: Armada's speed-up over MPI, one series per transport pass (and, across\n"
                  "# hosts, over the TCP socket).\n" + blocks;
  s += "set terminal " + terminal + " size 1400,900\nset output " + quote(png) + "\n";
  const std::string smoke = report.quick ? "SMOKE TEST (--quick: short repetitions, not a measurement); " : "";
  s += "set title " + quote("Armada vs MPI, measured in the same launch: speed-up, higher = Armada faster (transports " +
                            transports + ")\n" + smoke +
                            "host " + c.host + (c.cpu.empty() ? "" : ", " + c.cpu) + ", " + std::to_string(c.ranks) +
                            " ranks, " + c.mpi.substr(0, c.mpi.find(',')) + ", " + c.date) + "\n";
  s += "set key below center vertical noenhanced\nset grid ytics\nset termoption noenhanced\n";
  s += "set ylabel \"Armada speed-up over the legend's baseline (log scale; bars: min..max)\"\n";
  // After the other plots of the same script: none of their axis settings may carry over.
  s += "unset logscale x\nset logscale y\nset yrange " + range(lo, hi, true) + "\n" + log_ytics(lo / 1.25, hi * 1.25);
  s += "set format y \"%gx\"\nset xrange [-0.6:" + number(measures.size() - 0.4, 6) + "]\nset xtics (";
  for (std::size_t i = 0; i < measures.size(); ++i) s += std::string(i ? ", " : "") + quote(measures[i]) + " " + num(i);
  s += ")\nunset xlabel\n";
  // 1x: as fast as MPI. Above it Armada is faster, below slower.
  s += "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 2 lc rgb \"black\" dt 2 front\n";
  s += "set label 1 \"1x = as fast as MPI\" at graph 0.01, first 1 offset 0,1 front\n";
  s += plot + "\nunset arrow 1\nunset label 1\nunset output\n";
  return s;
}

std::string gnuplot_png_terminal() {
  std::FILE* p = popen("gnuplot -e 'set terminal' 2>&1", "r");
  if (!p) throw std::runtime_error("cannot run gnuplot (popen failed)");
  std::string text;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) text += buf;
  const int status = pclose(p);
  if (status != 0 || text.find("Available terminal types") == std::string::npos)
    throw std::runtime_error("gnuplot is not installed or does not run (`gnuplot -e 'set terminal'` failed): install "
                             "the Debian package gnuplot-nox (scripts/setup.sh does), or pass --no-plot");
  auto has = [&](const std::string& t) {
    for (std::size_t at = text.find(t); at != std::string::npos; at = text.find(t, at + 1)) {
      const bool start = at == 0 || text[at - 1] == ' ' || text[at - 1] == '\n';
      const bool end = at + t.size() < text.size() && text[at + t.size()] == ' ';
      if (start && end) return true;
    }
    return false;
  };
  if (has("pngcairo")) return "pngcairo";
  if (has("png")) return "png";
  throw std::runtime_error("this gnuplot has no PNG terminal (neither pngcairo nor png): install gnuplot-nox");
}

}  // namespace armada::bench::suite
