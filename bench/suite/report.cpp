#include "suite/report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "common/json.hpp"
#include "common/results.hpp"

namespace armada::bench::suite {

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
           ",\"route\":" + quote(c.route) + ",\"nodes\":" + std::to_string(c.nodes) +
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

std::string curve_label(const Report& report, const Record& r) {
  return r.op + " " + r.method + " [" + report.runs.at(static_cast<std::size_t>(r.run)).transport + "]";
}

std::string gnuplot_script(const Report& report, const std::vector<PlotSpec>& plots, const std::string& terminal,
                           const std::string& dir) {
  std::string s = "# armada-bench plots; run with: gnuplot <this file>\n";
  s += "set terminal " + terminal + " size 1200,720\n";
  s += "set key outside right top noenhanced\nset grid\nset termoption noenhanced\n";
  int block = 0;
  for (const PlotSpec& p : plots) {
    // One datablock per curve, points sorted by x.
    std::map<std::string, std::vector<const Record*>> curves;
    std::vector<std::string> order;
    for (const Record& r : report.records) {
      if (r.family != p.family || r.metric != p.metric || (p.seg_bytes && r.seg_bytes != p.seg_bytes)) continue;
      if (!p.ops.empty() && std::find(p.ops.begin(), p.ops.end(), r.op) == p.ops.end()) continue;
      if (p.logx && r.x <= 0) continue;  // not drawable on a log axis
      const std::string label = curve_label(report, r);
      if (!curves.count(label)) order.push_back(label);
      curves[label].push_back(&r);
    }
    if (order.empty()) continue;
    std::vector<std::pair<std::string, const Record*>> blocks;  // name, first record
    for (const std::string& label : order) {
      auto& pts = curves[label];
      std::stable_sort(pts.begin(), pts.end(), [](const Record* a, const Record* b) { return a->x < b->x; });
      const std::string name = "$d" + std::to_string(block++);
      s += name + " << EOD\n";
      for (const Record* r : pts)
        s += number(r->x, 9) + " " + number(r->stats.median, 9) + " " + number(r->stats.min, 9) + " " +
             number(r->stats.max, 9) + "\n";
      s += "EOD\n";
      blocks.emplace_back(name, pts.front());
    }
    s += "set output " + json::quote(dir.empty() ? p.file : dir + "/" + p.file) + "\n";
    s += "set title " + json::quote(p.title) + "\n";
    s += "set xlabel " + json::quote(p.xlabel) + "\nset ylabel " + json::quote(p.ylabel) + "\n";
    s += p.logx ? "set logscale x 2\n" : "unset logscale x\n";
    s += p.bytes_axis ? "set format x \"%.0b %BB\"\n" : "set format x \"%g\"\n";
    s += "set format y \"%g\"\n";
    s += p.logy ? "set logscale y\n" : "unset logscale y\n";
    // Style: one colour per op and method, one dash and point type per transport.
    std::vector<std::string> methods, transports;
    auto index = [](std::vector<std::string>& v, const std::string& key) {
      const auto it = std::find(v.begin(), v.end(), key);
      if (it != v.end()) return static_cast<int>(it - v.begin());
      v.push_back(key);
      return static_cast<int>(v.size() - 1);
    };
    static constexpr int kPoints[] = {7, 5, 9, 11, 13, 3};
    s += "plot ";
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const Record& r = *blocks[i].second;
      const int colour = index(methods, r.op + " " + r.method);
      const int transport = index(transports, report.runs.at(static_cast<std::size_t>(r.run)).transport);
      s += std::string(i ? ", \\\n     " : "") + blocks[i].first + " using 1:2:3:4 with yerrorlines lc " +
           std::to_string(colour + 1) + " dt " + std::to_string(transport + 1) + " pt " +
           std::to_string(kPoints[transport % 6]) + " title " + json::quote(curve_label(report, r));
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
