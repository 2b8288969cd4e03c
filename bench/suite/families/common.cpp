#include "suite/families/common.hpp"

#include <stdexcept>

namespace armada::bench::suite {

namespace {

Record make_record(const Pass& p, const std::string& family, const Outcome& o, const std::string& metric,
                   const std::string& unit, const std::vector<double>& samples) {
  Record r = plain_record(p, family, o.op, o.method, metric, unit);
  r.stats = summarize(samples);
  r.p25 = percentile(samples, 25);
  r.p75 = percentile(samples, 75);
  r.iterations = o.iterations;
  r.verified = o.verified;
  return r;
}

std::vector<double> gbps(const Outcome& o, std::size_t bytes) {
  std::vector<double> v;
  for (double us : o.us) v.push_back(static_cast<double>(bytes) / (us * 1e3));
  return v;
}

Stats stats_in(const Outcome& o, Unit unit, std::size_t bytes) {
  return summarize(unit == Unit::Micros ? o.us : gbps(o, bytes));
}

}  // namespace

Record plain_record(const Pass& p, const std::string& family, const std::string& op, const std::string& method,
                    const std::string& metric, const std::string& unit) {
  Record r;
  r.family = family;
  r.op = op;
  r.method = method;
  r.metric = metric;
  r.unit = unit;
  r.run = p.run;
  return r;
}

void add_records(Pass& p, const std::string& family, const Outcome& o, std::size_t bytes, std::size_t seg_bytes,
                 std::size_t nseg, double x, bool bandwidth) {
  auto add = [&](const std::string& metric, const std::string& unit, const std::vector<double>& samples) {
    Record r = make_record(p, family, o, metric, unit, samples);
    r.bytes = bytes;
    r.seg_bytes = seg_bytes;
    r.nseg = nseg;
    r.x = x;
    p.report->records.push_back(r);
  };
  add("latency", "us", o.us);
  if (bandwidth && bytes != 0) add("bandwidth", "GB/s", gbps(o, bytes));
}

void section(Pass& p, const std::string& title) {
  p.progress->done();
  p.table->section(title);
}

void row(Pass& p, const std::string& label, std::size_t bytes, Unit unit, const Outcome& a, const Outcome* b) {
  p.progress->done();
  Result r;
  r.bench = label;
  r.bytes = bytes;
  r.variant = p.transport;
  r.unit = unit;
  r.armada = stats_in(a, unit, bytes);
  if (b) {
    r.baseline = b->method;
    r.baseline_stats = stats_in(*b, unit, bytes);
    if (baseline_other_route(p.report->runs.at(static_cast<std::size_t>(p.run)), b->method)) r.ratio_note = "other route";
  }
  p.table->add(r);
}

std::vector<Outcome> run_all(Pass& p, std::vector<Contestant>& cs, const std::vector<std::string>& ops) {
  if (ops.size() != cs.size()) throw std::logic_error("run_all: one op per contestant");
  std::vector<std::size_t> iters;
  std::vector<std::vector<double>> samples;
  for (Contestant& c : cs) c.unit = Unit::Micros;
  measure(cs, p.opt->reps, p.opt->rep_seconds, &iters, &samples);
  std::vector<Outcome> out;
  for (std::size_t i = 0; i < cs.size(); ++i) out.push_back({ops[i], cs[i].name, samples[i], iters[i], false});
  return out;
}

Outcome* find(std::vector<Outcome>& v, const std::string& method, const std::string& op) {
  for (Outcome& o : v)
    if (o.method == method && (op.empty() || o.op == op)) return &o;
  return nullptr;
}

bool local_check(Pass& p, const std::string& what, const std::string& problem) {
  if (problem.empty()) return true;
  fail(p, what, problem);
  return false;
}

bool remote_ok(Pass& p, int rank, const Command& m, const std::string& what) {
  const long before = p.failures;
  remote_check(p, rank, m, what);
  return p.failures == before;
}

}  // namespace armada::bench::suite
