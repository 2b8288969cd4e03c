#include "suite/report.hpp"

#include <algorithm>
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
                    ",\"started\":" + quote(report.started) + ",\n\"runs\":[";
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    const RunConfig& c = report.runs[i];
    out += std::string(i ? ",\n " : "\n ") + "{" + run_fields(c) + ",\"status\":" + quote(c.status) +
           ",\"route\":" + quote(c.route) + ",\"mpi_route\":" + quote(c.mpi_route) + ",\"nodes\":" + std::to_string(c.nodes) +
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
  for (const json::Value& v : member(doc, "runs").array()) {
    RunConfig c;
    c.transport = str(v, "transport");
    c.status = str(v, "status");
    c.route = str(v, "route");
    if (const json::Value* m = v.find("mpi_route")) c.mpi_route = m->string();  // absent in older files
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

std::vector<PlotSpec> standard_plots(const Report& report) {
  std::vector<PlotSpec> all;
  for (const char* op : {"put", "get", "acc"}) {
    const std::string o = op;
    const std::vector<std::string> ops = o == "acc" ? std::vector<std::string>{o} : std::vector<std::string>{o, "sendrecv"};
    const std::string with = o == "acc" ? " (MPI_Accumulate + flush)" : " (MPI RMA + flush, send/recv)";
    all.push_back({"contig_" + o + "_latency.png", "Contiguous " + o + ": time per operation vs MPI" + with + "; median, bars min-max",
                   "contig", "latency", 0, ops, "bytes per operation", "time per operation (us)", true, true, true});
    all.push_back({"contig_" + o + "_bandwidth.png", "Contiguous " + o + ": bandwidth vs MPI" + with + "; median, bars min-max",
                   "contig", "bandwidth", 0, ops, "bytes per operation", "bandwidth (GB/s)", true, true, true});
  }
  all.push_back({"strided_16B.png", "Strided 2-D and vector, 16 B segments, vs one contiguous call per segment", "strided",
                 "bandwidth", 16, {}, "segments", "bandwidth (GB/s)", true, true, false});
  all.push_back({"strided_1KiB.png", "Strided 2-D and vector, 1 KiB segments, vs one contiguous call per segment",
                 "strided", "bandwidth", 1024, {}, "segments", "bandwidth (GB/s)", true, true, false});
  all.push_back({"overlap.png", "Nonblocking get: share of its time hidden behind computation", "overlap", "overlap", 0,
                 {}, "computation (% of a blocking get)", "hidden (%)", false, false, false});
  all.push_back({"fence.png", "An 8-byte put to each of k targets, then completion", "fence", "latency", 0, {},
                 "targets", "time per round (us)", true, true, false});
  // A plot needs at least two x values (one point is a table row, not a curve).
  std::vector<PlotSpec> out;
  for (const PlotSpec& p : all) {
    std::vector<double> xs;
    for (const Record& r : report.records)
      if (r.family == p.family && r.metric == p.metric && (p.seg_bytes == 0 || r.seg_bytes == p.seg_bytes) &&
          (p.ops.empty() || std::find(p.ops.begin(), p.ops.end(), r.op) != p.ops.end()) &&
          std::find(xs.begin(), xs.end(), r.x) == xs.end())
        xs.push_back(r.x);
    if (xs.size() >= 2) out.push_back(p);
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

namespace {

/// The headline measures: where each figure and its MPI baseline are found in the records.
struct HeadlineSpec {
  const char* measure;
  const char* family;
  const char* op;
  const char* metric;
  std::size_t bytes;  // 0: any
  double x;           // < 0: any
  const char* baseline;
  bool lower_is_better;
};
constexpr HeadlineSpec kHeadline[] = {
    {"8 B put latency", "contig", "put", "latency", 8, -1, "mpi_put_flush", true},
    {"8 B get latency", "contig", "get", "latency", 8, -1, "mpi_get_flush", true},
    {"1 MiB put bandwidth", "contig", "put", "bandwidth", 1 << 20, -1, "mpi_put_flush", false},
    {"1 MiB get bandwidth", "contig", "get", "bandwidth", 1 << 20, -1, "mpi_get_flush", false},
    {"overlap, 1 MiB get_nb", "overlap", "get_nb", "overlap", 0, 100, "mpi_rget", false},
    {"fetch-add", "atomic", "fetch_add", "latency", 0, -1, "mpi_fetch_and_op", true},
    {"lock + unlock", "atomic", "lock_unlock", "latency", 0, -1, "mpi_win_lock_excl", true},
};

const Record* find_record(const Report& report, int run, const HeadlineSpec& h, const std::string& method) {
  for (const Record& r : report.records)
    if (r.run == run && r.family == h.family && r.op == h.op && r.metric == h.metric && r.method == method &&
        (h.bytes == 0 || r.bytes == h.bytes) && (h.x < 0 || r.x == h.x))
      return &r;
  return nullptr;
}

std::string figure(double v, const std::string& unit) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g %s", v, unit.c_str());
  return buf;
}

std::string padded(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

/// The record of `method` in run `run` (family, op, metric, bytes; 0 bytes: any), or null.
const Record* find_method(const Report& report, int run, const char* family, const char* op, const char* metric,
                          std::size_t bytes, const std::string& method) {
  const HeadlineSpec h{"", family, op, metric, bytes, -1, "", true};
  return find_record(report, run, h, method);
}

/// Under the headline of a run with the TCP socket baseline: the link's own limit between the
/// same two ranks, and each Armada figure as a multiple of it (latency: of the socket's one-way
/// time, lower is better; bandwidth: of its stream, higher is better).
std::string link_lines(const Report& report, int run) {
  const Record* one_way = find_method(report, run, "contig", "sendrecv", "latency", 8, "socket_pingpong_half");
  const Record* stream = find_method(report, run, "contig", "sendrecv", "bandwidth", 1 << 20, "socket_stream");
  if (!one_way && !stream) return "";
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

std::string headline_table(const Report& report) {
  std::string out = "\n######## headline: each figure against its MPI baseline, measured in the same launch ########\n"
                    "(medians; overlap: % of a blocking get hidden behind a computation as long as that get)\n";
  bool footnote = false;
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    const RunConfig& cfg = report.runs[i];
    if (cfg.status != "ok") {
      out += "\n== " + cfg.transport + ": " + cfg.status + "\n";
      continue;
    }
    out += "\n== " + cfg.transport + " (rank 1 through '" + cfg.route + "'" +
           (cfg.mpi_route.empty() ? "" : "; MPI over " + cfg.mpi_route) + ")\n";
    out += padded("measure", 42) + padded("armada", 14) + padded("MPI baseline", 30) + "armada/MPI\n";
    for (const HeadlineRow& r : headline_rows(report, static_cast<int>(i))) {
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
      char ratio[32] = "-";
      if (r.mpi->stats.median != 0) std::snprintf(ratio, sizeof ratio, "%.3g", r.armada->stats.median / r.mpi->stats.median);
      if (r.other_route) {
        line += std::string("other route* (") + ratio + ")";
        footnote = true;
      } else {
        line += ratio;
      }
      out += line + "\n";
    }
    out += link_lines(report, static_cast<int>(i));
    if (other_route(cfg))
      out += "   * other route: " + route_note(cfg) + "; the ratio compares two routes, not two implementations.\n";
  }
  if (footnote) out += "\n";
  return out;
}

std::string curve_label(const Report& report, const Record& r) {
  const RunConfig& run = report.runs.at(static_cast<std::size_t>(r.run));
  if (baseline_other_route(run, r.method))
    return r.op + " " + r.method + " [" + run.transport + " pass; baseline over " + baseline_route(run, r.method) + "]";
  return r.op + " " + r.method + " [" + run.transport + "]";
}

namespace {

/// The records of plot `p`, grouped by curve label (in order of first appearance).
struct Curves {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Record*>> points;
  std::vector<double> xs;  // every x of the plot, sorted
};

Curves curves_of(const Report& report, const PlotSpec& p) {
  Curves c;
  for (const Record& r : report.records) {
    if (r.family != p.family || r.metric != p.metric || (p.seg_bytes && r.seg_bytes != p.seg_bytes)) continue;
    if (!p.ops.empty() && std::find(p.ops.begin(), p.ops.end(), r.op) == p.ops.end()) continue;
    if (p.logx && r.x <= 0) continue;  // not drawable on a log axis
    const std::string label = curve_label(report, r);
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

}  // namespace

std::string gnuplot_script(const Report& report, const std::vector<PlotSpec>& plots, const std::string& terminal,
                           const std::string& dir) {
  std::string s = "# armada-bench plots; run with: gnuplot <this file>\n";
  s += "# One colour per transport, one dash and point type per op and method; error bars min-max.\n";
  s += "set terminal " + terminal + " size 1400,1000\n";
  s += "set key below center horizontal maxcols 3 noenhanced\nset grid\nset termoption noenhanced\n";
  // Colours of the transports, in order of appearance across the report (the same in every plot).
  std::vector<std::string> transports;
  for (const RunConfig& run : report.runs)
    if (run.status == "ok") index_of(transports, run.transport);
  static constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  static constexpr int kPoints[] = {7, 5, 9, 11, 13, 3, 1, 2, 4, 6};
  static constexpr const char* kDashes[] = {"1", "2", "3", "4", "5", "(12,4,2,4,2,4)", "(2,8)", "(20,6)"};
  int block = 0;
  for (const PlotSpec& p : plots) {
    const Curves c = curves_of(report, p);
    if (c.order.empty()) continue;
    std::vector<std::string> names;
    double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
    bool first = true;
    for (const std::string& label : c.order) {
      const auto& pts = c.points.at(label);
      const std::string name = "$d" + std::to_string(block++);
      s += name + " << EOD\n";
      // A blank line where the curve skips an x of the sweep: gnuplot breaks the line there.
      auto at = std::find(c.xs.begin(), c.xs.end(), pts.front()->x);
      for (const Record* r : pts) {
        if (*at != r->x) s += "\n";
        at = std::find(c.xs.begin(), c.xs.end(), r->x) + 1;
        s += number(r->x, 9) + " " + number(r->stats.median, 9) + " " + number(r->stats.min, 9) + " " +
             number(r->stats.max, 9) + "\n";
        const double lo = p.logy && r->stats.min <= 0 ? r->stats.median : r->stats.min;
        if (first || r->x < xlo) xlo = r->x;
        if (first || r->x > xhi) xhi = r->x;
        if (first || lo < ylo) ylo = lo;
        if (first || r->stats.max > yhi) yhi = r->stats.max;
        first = false;
      }
      s += "EOD\n";
      names.push_back(name);
    }
    s += "set output " + json::quote(dir.empty() ? p.file : dir + "/" + p.file) + "\n";
    s += "set title " + json::quote(p.title) + "\n";
    s += "set xlabel " + json::quote(p.xlabel) + "\nset ylabel " + json::quote(p.ylabel) + "\n";
    s += p.logx ? "set logscale x 2\n" : "unset logscale x\n";
    s += p.logy ? "set logscale y\n" : "unset logscale y\n";
    s += "set xrange " + range(xlo, xhi, p.logx) + "\nset yrange " + range(ylo, yhi, p.logy) + "\n";
    s += p.bytes_axis ? "set format x \"%.0b %BB\"\n" : "set format x \"%g\"\n";
    s += "set format y \"%g\"\n";
    std::vector<std::string> methods;
    s += "plot ";
    for (std::size_t i = 0; i < names.size(); ++i) {
      const Record& r = *c.points.at(c.order[i]).front();
      const int method = index_of(methods, r.op + " " + r.method);
      const int transport = index_of(transports, report.runs.at(static_cast<std::size_t>(r.run)).transport);
      s += std::string(i ? ", \\\n     " : "") + names[i] + " using 1:2:3:4 with yerrorlines lc rgb \"" +
           kColours[transport % 6] + "\" dt " + kDashes[method % 8] + " pt " +
           std::to_string(kPoints[method % 10]) + " title " + json::quote(c.order[i]);
    }
    s += "\n";
  }
  s += "unset output\n";
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
