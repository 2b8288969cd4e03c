// armada-bench's output formats (JSON document and its round trip, CSV, the gnuplot script), the
// JSON reader, and the command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "armada/rma/runtime.hpp"
#include "armada/programs/json.hpp"
#include "common/results.hpp"
#include "suite/options.hpp"
#include "suite/report.hpp"

namespace bench = armada::bench;
namespace json = armada::programs::json;
namespace suite = armada::bench::suite;

namespace {

suite::Record record(const std::string& family, const std::string& op, const std::string& method,
                     const std::string& metric, std::size_t bytes, double x, double median, int run) {
  suite::Record r;
  r.family = family;
  r.op = op;
  r.method = method;
  r.metric = metric;
  r.unit = metric == "bandwidth" ? "GB/s" : metric == "overlap" ? "%" : "us";
  r.bytes = bytes;
  r.x = x;
  r.stats = {median, median * 0.9, median * 1.25, 5};
  r.p25 = median * 0.95;
  r.p75 = median * 1.1;
  r.iterations = 1000 + bytes;
  r.verified = true;
  r.run = run;
  return r;
}

/// Two transport passes (one not available), contiguous sweeps, a strided point and overlap.
suite::Report sample() {
  suite::Report rep;
  rep.command = "armada-bench --sizes \"8:1K\" --name a\\b\n";  // quotes, backslash, newline
  rep.started = "2026-11-22T02:00:00Z";
  rep.job_choice = "none (one node: shared memory reaches every rank)";
  rep.between_nodes_choice = "server (ARMADA_TRANSPORT=auto: the fallback)";
  suite::RunConfig shm;
  shm.transport = "shm";
  shm.route = "shm";
  shm.mpi_route = "shared memory";
  shm.node_size = 0;
  shm.ranks = 2;
  shm.nodes = 1;
  shm.mpi = "Open MPI v4.1.4";
  shm.host = "node, \"one\"";  // a comma and quotes: CSV quoting
  shm.cpu = "Some CPU @ 2.0GHz, 2 CPUs";
  shm.date = "2026-11-22T02:00:01Z";
  shm.loadavg_start = 0.25;
  shm.loadavg_end = 0.5;
  suite::RunConfig none = shm;
  none.transport = "mpi-rma";
  none.status = "not available in this build: [rank 0] rma::init: argument 'ARMADA_TRANSPORT' = 'mpi-rma'";
  none.route = "";
  none.node_size = 1;
  none.loadavg_end = -1;
  rep.runs = {shm, none};
  for (std::size_t b : {8u, 64u, 1024u}) {
    const double us = 0.1 + static_cast<double>(b) / 1000;
    rep.records.push_back(record("contig", "put", "armada", "latency", b, static_cast<double>(b), us, 0));
    rep.records.push_back(record("contig", "put", "armada", "bandwidth", b, static_cast<double>(b), b / (us * 1e3), 0));
    rep.records.push_back(record("contig", "put", "mpi_put_flush", "latency", b, static_cast<double>(b), 2 * us, 0));
  }
  suite::Record s = record("strided", "put", "strided", "bandwidth", 16 * 64, 64, 3.5, 0);
  s.seg_bytes = 16;
  s.nseg = 64;
  rep.records.push_back(s);
  rep.records.push_back(record("overlap", "get_nb", "armada", "overlap", 1 << 20, 50, 42.5, 0));
  rep.records.back().verified = false;
  return rep;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

// ---- JSON reader ------------------------------------------------------------------------------

TEST(Json, ParsesEveryKindOfValue) {
  const json::Value v = json::parse(R"( {"a": [1, -2.5e3, 0.25], "b": "x\"y\\z\n\u00e9", "c": true, "d": null, "e": {}} )");
  ASSERT_TRUE(v.is_object());
  const auto& a = v.find("a")->array();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].number(), 1);
  EXPECT_EQ(a[1].number(), -2500);
  EXPECT_EQ(a[2].number(), 0.25);
  EXPECT_EQ(v.find("b")->string(), "x\"y\\z\n\xc3\xa9");
  EXPECT_TRUE(v.find("c")->boolean());
  EXPECT_TRUE(v.find("d")->is_null());
  EXPECT_TRUE(v.find("e")->object().empty());
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_THROW(v.find("a")->string(), std::runtime_error);
}

TEST(Json, RejectsMalformedDocuments) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", "-", "\"abc", "\"\\q\"", "tru",
                          "[1] 2", "{\"a\":\"\n\"}", "nan"}) {
    EXPECT_THROW(json::parse(bad), std::runtime_error) << bad;
  }
}

TEST(Json, QuoteAndNumberRoundTrip) {
  const std::string s = std::string("tab\there \"q\" back\\slash \x01 ") + "\xc3\xa9";
  EXPECT_EQ(json::parse(json::quote(s)).string(), s);
  for (double d : {0.0, 1.0, -3.25, 1.23456789e-7, 6.02214076e23}) EXPECT_DOUBLE_EQ(json::parse(json::number(d)).number(), d);
  EXPECT_EQ(json::number(1.0 / 0.0), "null");
}

// ---- the results document ---------------------------------------------------------------------

TEST(Report, JsonIsWellFormedAndRecordsTheConfigurationWithEachResult) {
  const suite::Report rep = sample();
  const std::string text = suite::to_json(rep);
  const json::Value doc = json::parse(text);  // throws if not well-formed
  EXPECT_EQ(doc.find("tool")->string(), "armada-bench");
  EXPECT_EQ(doc.find("command")->string(), rep.command);
  const auto& results = doc.find("results")->array();
  ASSERT_EQ(results.size(), rep.records.size());
  for (const json::Value& r : results) {
    for (const char* key : {"transport", "node_size", "ranks", "mpi", "host", "date", "family", "op", "method", "metric",
                            "unit", "bytes", "median", "min", "max", "reps", "verified"})
      EXPECT_NE(r.find(key), nullptr) << key;
    EXPECT_EQ(r.find("transport")->string(), "shm");
    EXPECT_EQ(r.find("mpi")->string(), "Open MPI v4.1.4");
  }
  const auto& runs = doc.find("runs")->array();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].find("status")->string().rfind("not available in this build", 0), 0u);
  EXPECT_TRUE(runs[1].find("loadavg_end")->is_null());
}

TEST(Report, JsonRoundTrips) {
  const suite::Report rep = sample();
  const suite::Report back = suite::from_json(suite::to_json(rep));
  EXPECT_EQ(back.command, rep.command);
  EXPECT_EQ(back.started, rep.started);
  EXPECT_EQ(back.quick, rep.quick);
  EXPECT_EQ(back.job_choice, rep.job_choice);
  EXPECT_EQ(back.between_nodes_choice, rep.between_nodes_choice);
  ASSERT_EQ(back.runs.size(), rep.runs.size());
  for (std::size_t i = 0; i < rep.runs.size(); ++i) {
    EXPECT_EQ(back.runs[i].transport, rep.runs[i].transport);
    EXPECT_EQ(back.runs[i].status, rep.runs[i].status);
    EXPECT_EQ(back.runs[i].host, rep.runs[i].host);
    EXPECT_EQ(back.runs[i].cpu, rep.runs[i].cpu);
    EXPECT_EQ(back.runs[i].mpi_route, rep.runs[i].mpi_route);
    EXPECT_EQ(back.runs[i].node_size, rep.runs[i].node_size);
    EXPECT_EQ(back.runs[i].loadavg_start, rep.runs[i].loadavg_start);
    EXPECT_EQ(back.runs[i].loadavg_end, rep.runs[i].loadavg_end);
  }
  ASSERT_EQ(back.records.size(), rep.records.size());
  for (std::size_t i = 0; i < rep.records.size(); ++i) {
    const suite::Record &a = rep.records[i], &b = back.records[i];
    EXPECT_EQ(b.family, a.family);
    EXPECT_EQ(b.op, a.op);
    EXPECT_EQ(b.method, a.method);
    EXPECT_EQ(b.metric, a.metric);
    EXPECT_EQ(b.unit, a.unit);
    EXPECT_EQ(b.bytes, a.bytes);
    EXPECT_EQ(b.seg_bytes, a.seg_bytes);
    EXPECT_EQ(b.nseg, a.nseg);
    EXPECT_DOUBLE_EQ(b.x, a.x);
    EXPECT_DOUBLE_EQ(b.stats.median, a.stats.median);
    EXPECT_DOUBLE_EQ(b.stats.min, a.stats.min);
    EXPECT_DOUBLE_EQ(b.stats.max, a.stats.max);
    EXPECT_DOUBLE_EQ(b.p25, a.p25);
    EXPECT_DOUBLE_EQ(b.p75, a.p75);
    EXPECT_EQ(b.stats.count, a.stats.count);
    EXPECT_EQ(b.iterations, a.iterations);
    EXPECT_EQ(b.verified, a.verified);
    EXPECT_EQ(b.run, a.run);
  }
}

// Files written before the verdict have no quick flag, choices or CPU: a quick run is known by its
// command line, the rest is empty.
TEST(Report, FromJsonReadsFilesWrittenBeforeTheVerdict) {
  suite::Report rep = sample();
  rep.command = "armada-bench --quick";
  std::string text = suite::to_json(rep);
  for (const char* field : {",\"quick\":false", ",\"job_choice\":\"none (one node: shared memory reaches every rank)\"",
                            ",\"between_nodes_choice\":\"server (ARMADA_TRANSPORT=auto: the fallback)\"",
                            ",\"cpu\":\"Some CPU @ 2.0GHz, 2 CPUs\""}) {
    const auto at = text.find(field);
    ASSERT_NE(at, std::string::npos) << field << " in " << text;
    text.erase(at, std::string(field).size());
  }
  const suite::Report back = suite::from_json(text);
  EXPECT_TRUE(back.quick);
  EXPECT_EQ(back.job_choice, "");
  EXPECT_EQ(back.between_nodes_choice, "");
  EXPECT_EQ(back.runs[0].cpu, "");
  rep.quick = true;
  rep.command = "armada-bench";
  EXPECT_TRUE(suite::from_json(suite::to_json(rep)).quick) << "the recorded flag wins";
}

TEST(Report, FromJsonRejectsOtherDocumentsAndMissingFields) {
  EXPECT_THROW(suite::from_json("{\"tool\":\"other\"}"), std::runtime_error);
  EXPECT_THROW(suite::from_json("[]"), std::runtime_error);
  std::string text = suite::to_json(sample());
  const auto at = text.find("\"median\":");
  text.replace(at, 9, "\"mediam\":");
  EXPECT_THROW(suite::from_json(text), std::runtime_error);
  EXPECT_THROW(suite::to_json([] {
                 suite::Report r = sample();
                 r.records[0].run = 7;  // names no run
                 return r;
               }()),
               std::logic_error);
}

TEST(Report, CsvHasTheHeaderAndOneRowPerRecord) {
  const suite::Report rep = sample();
  const auto rows = lines(suite::to_csv(rep));
  ASSERT_EQ(rows.size(), rep.records.size() + 1);
  EXPECT_EQ(rows[0] + "\n", suite::csv_header());
  EXPECT_EQ(rows[0],
            "transport,node_size,ranks,family,op,method,metric,unit,bytes,seg_bytes,nseg,x,median,min,max,p25,p75,"
            "reps,iterations,verified,mpi,host,date");
  const std::size_t columns = count(rows[0], ",") + 1;
  // The host holds a comma and quotes: one quoted cell, so every row has the header's columns
  // outside quotes.
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::size_t commas = 0;
    bool quoted = false;
    for (char c : rows[i]) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++commas;
    }
    EXPECT_EQ(commas + 1, columns) << rows[i];
    EXPECT_NE(rows[i].find("\"node, \"\"one\"\"\""), std::string::npos) << rows[i];
  }
  const std::string first = "shm,0,2,contig,put,armada,latency,us,8,0,0,8,";
  ASSERT_EQ(rows[1].substr(0, first.size()), first);
  EXPECT_EQ(std::strtod(rows[1].c_str() + first.size(), nullptr), rep.records[0].stats.median);  // exact
  EXPECT_NE(rows.back().find(",no,"), std::string::npos);  // the unverified overlap record
}

// ---- plots ------------------------------------------------------------------------------------

TEST(Plot, StandardPlotsAreThoseWithAtLeastTwoPoints) {
  const auto plots = suite::standard_plots(sample());
  std::vector<std::string> files;
  for (const auto& p : plots) files.push_back(p.file);
  // put latency and bandwidth have three sizes; strided and overlap have one point each; the
  // pass that did not run has no plots. File names start with the pass.
  EXPECT_EQ(files, (std::vector<std::string>{"shm_contig_put_latency.png", "shm_contig_put_bandwidth.png"}));
  for (const auto& p : plots) EXPECT_EQ(p.run, 0);
}

TEST(Plot, GnuplotScriptHasTheDataTheCurvesAndLogAxes) {
  const suite::Report rep = sample();
  const auto plots = suite::standard_plots(rep);
  const std::string s = suite::gnuplot_script(rep, plots, "pngcairo", "out dir");
  EXPECT_EQ(s.find("set terminal pngcairo"), s.find("set terminal"));
  EXPECT_NE(s.find("\nset key below"), std::string::npos);  // the legend never covers the data
  EXPECT_EQ(count(s, "\nset output "), 2u);
  EXPECT_NE(s.find("\nunset output\n"), std::string::npos);
  EXPECT_NE(s.find("set output \"out dir/shm_contig_put_latency.png\""), std::string::npos);
  EXPECT_NE(s.find("set output \"out dir/shm_contig_put_bandwidth.png\""), std::string::npos);
  EXPECT_EQ(count(s, "set logscale x 2"), 2u);
  EXPECT_EQ(count(s, "set logscale y"), 2u);
  // Latency: armada and MPI curves; bandwidth: armada only. One datablock per curve.
  EXPECT_EQ(count(s, " << EOD"), 3u);
  EXPECT_EQ(count(s, "title \"Armada put\""), 2u);
  EXPECT_EQ(count(s, "title \"MPI_Put + flush\""), 1u);
  // One colour and point type per method (armada blue, MPI RMA red), one dash type per op.
  EXPECT_EQ(count(s, "$d0 using 1:2:3:4 with yerrorlines lc rgb \"#1f77b4\" dt 1 pt 7 title"), 1u);
  EXPECT_EQ(count(s, "$d1 using 1:2:3:4 with yerrorlines lc rgb \"#d62728\" dt 1 pt 5 title"), 1u);
  EXPECT_EQ(count(s, "$d2 using 1:2:3:4 with yerrorlines lc rgb \"#1f77b4\" dt 1 pt 7 title"), 1u);
  // Datablock rows: x median min max, sorted by x.
  const auto rows = lines(s);
  const auto first = std::find(rows.begin(), rows.end(), "$d0 << EOD");
  ASSERT_NE(first, rows.end());
  EXPECT_EQ(*(first + 1), "8 0.108 0.0972 0.135");
  EXPECT_EQ(*(first + 2), "64 0.164 0.1476 0.205");
  EXPECT_EQ(*(first + 3), "1024 1.124 1.0116 1.405");
  EXPECT_EQ(*(first + 4), "EOD");
  // A labelled tic at every size measured, the smallest too.
  EXPECT_EQ(count(s, "set xtics (\"8 B\" 8, \"64 B\" 64, \"1 KiB\" 1024)\n"), 2u) << s;
  // Each plot's title names its pass, host, CPU, ranks and date.
  EXPECT_EQ(count(s, "set title \"shm pass: contiguous put, "), 2u) << s;
  EXPECT_EQ(count(s, "\\nhost node, \\\"one\\\", Some CPU @ 2.0GHz, 2 CPUs, 2 ranks, 2026-11-22T02:00:01Z\"\n"), 2u) << s;
  EXPECT_EQ(s.find("SMOKE TEST"), std::string::npos) << "not a --quick run";
}

TEST(Plot, PngcairoOrPngIsDetectedFromTheInstalledGnuplot) {
  // gnuplot-nox is a build dependency of the suite (scripts/setup.sh installs it).
  const std::string t = suite::gnuplot_png_terminal();
  EXPECT_TRUE(t == "pngcairo" || t == "png") << t;
}

// ---- the command line ---------------------------------------------------------------------------

TEST(Options, DefaultsCoverEveryFamilyAndTransport) {
  const char* argv[] = {"armada-bench"};
  const suite::Options o = suite::parse_options(1, argv);
  // Every transport of this build, in registration order: shm, server, mpi-rma, then rdma where
  // UCX was found.
  std::vector<std::string> registered;
  for (const armada::rma::RegisteredTransport& t : armada::rma::transports()) registered.emplace_back(t.name);
  EXPECT_EQ(o.transports, registered);
  ASSERT_GE(registered.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(registered.begin(), registered.begin() + 3),
            (std::vector<std::string>{"shm", "server", "mpi-rma"}));
  EXPECT_EQ(o.families, suite::kFamilies);
  EXPECT_EQ(o.sizes.front(), 8u);
  EXPECT_EQ(o.sizes.back(), 4u << 20);
  EXPECT_EQ(o.sizes.size(), 20u);
  EXPECT_EQ(o.nsegs.size(), 11u);
  EXPECT_EQ(o.reps, 5);
  EXPECT_TRUE(o.plot);
}

TEST(Options, SubcommandsSelectionsAndQuick) {
  const char* argv[] = {"armada-bench", "strided", "--transports", "server,shm", "--sizes", "8:64", "--quick", "--reps", "9"};
  const suite::Options o = suite::parse_options(9, argv);
  EXPECT_EQ(o.families, (std::vector<std::string>{"strided"}));
  EXPECT_EQ(o.transports, (std::vector<std::string>{"server", "shm"}));  // the order given
  EXPECT_EQ(o.sizes, (std::vector<std::size_t>{8, 16, 32, 64}));
  EXPECT_EQ(o.reps, 9);               // given: kept
  EXPECT_EQ(o.rep_seconds, 0.003);    // --quick default
}

TEST(Options, AnyTransportNameIsLeftToRmaInitAndDuplicatesAreDropped) {
  const char* argv[] = {"armada-bench", "--transports", "rdma,shm,rdma"};
  EXPECT_EQ(suite::parse_options(3, argv).transports, (std::vector<std::string>{"rdma", "shm"}));
}

TEST(Options, BadOptionsNameTheOptionAndTheValue) {
  auto message = [](std::vector<const char*> args) {
    args.insert(args.begin(), "armada-bench");
    try {
      suite::parse_options(static_cast<int>(args.size()), args.data());
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message({"--transports", "shm,IB!"}).find("--transports: 'IB!' is not a transport name"), std::string::npos);
  EXPECT_NE(message({"--transports", "shm,,server"}).find("--transports: 'shm,,server' has an empty item"), std::string::npos);
  EXPECT_NE(message({"--only", "contig,nope"}).find("--only: unknown value 'nope'"), std::string::npos);
  EXPECT_NE(message({"--sizes", "12"}).find("--sizes: 12 is not a multiple of 8"), std::string::npos);
  EXPECT_NE(message({"--sizes", "8:x"}).find("--sizes: 'x'"), std::string::npos);
  EXPECT_NE(message({"--reps", "0"}).find("--reps: '0'"), std::string::npos);
  EXPECT_NE(message({"--rep-ms"}).find("--rep-ms needs a value"), std::string::npos);
  EXPECT_NE(message({"--frobnicate"}).find("unknown option '--frobnicate'"), std::string::npos);
  EXPECT_NE(message({"nosuchfamily"}).find("subcommand: unknown value 'nosuchfamily'"), std::string::npos);
  EXPECT_NE(message({"--name", "a/b"}).find("--name: 'a/b'"), std::string::npos);
}

// ---- routes, the headline table and the plots of several transports ------------------------------

namespace {

suite::RunConfig pass(const std::string& transport, const std::string& route, const std::string& mpi_route) {
  suite::RunConfig c;
  c.transport = transport;
  c.route = route;
  c.mpi_route = mpi_route;
  c.ranks = 2;
  return c;
}

/// The headline measures of one pass: Armada at half (latency) or twice (bandwidth, overlap) the
/// MPI figure; the server pass has no lock figure.
void add_headline_records(suite::Report& rep, int run, bool with_lock) {
  auto add = [&](const char* family, const char* op, const char* method, const char* metric, std::size_t bytes, double x,
                 double v) {
    rep.records.push_back(record(family, op, method, metric, bytes, x, v, run));
    rep.records.back().stats = {v, v * 0.95, v * 1.1, 5};  // a spread of 16 %: not noisy
  };
  add("contig", "put", "armada", "latency", 8, 8, 1.0);
  add("contig", "put", "mpi_put_flush", "latency", 8, 8, 2.0);
  add("contig", "get", "armada", "latency", 8, 8, 1.5);
  add("contig", "get", "mpi_get_flush", "latency", 8, 8, 3.0);
  add("contig", "put", "armada", "bandwidth", 1 << 20, 1 << 20, 10);
  add("contig", "put", "mpi_put_flush", "bandwidth", 1 << 20, 1 << 20, 5);
  add("contig", "get", "armada", "bandwidth", 1 << 20, 1 << 20, 8);
  add("contig", "get", "mpi_get_flush", "bandwidth", 1 << 20, 1 << 20, 4);
  add("overlap", "get_nb", "armada", "overlap", 1 << 20, 0, 1);
  add("overlap", "get_nb", "armada", "overlap", 1 << 20, 100, 90);
  add("overlap", "get_nb", "mpi_rget", "overlap", 1 << 20, 100, 45);
  add("atomic", "fetch_add", "armada", "latency", 8, 0, 0.5);
  add("atomic", "fetch_add", "mpi_fetch_and_op", "latency", 8, 0, 1.0);
  if (with_lock) {
    add("atomic", "lock_unlock", "armada", "latency", 8, 0, 0.25);
    add("atomic", "lock_unlock", "mpi_win_lock_excl", "latency", 8, 0, 0.5);
  }
}

suite::Report two_passes() {
  suite::Report rep;
  suite::RunConfig none = pass("mpi-rma", "", "shared memory");
  none.status = "not available in this build: no MPI RMA";
  rep.runs = {pass("shm", "shm", "shared memory"), pass("server", "server", "shared memory"), none};
  add_headline_records(rep, 0, true);
  add_headline_records(rep, 1, false);
  return rep;
}

}  // namespace

TEST(Route, TheMpiBaselineTravelsAnotherRouteOnlyWhereTheTransportsDiffer) {
  EXPECT_FALSE(suite::other_route(pass("shm", "shm", "shared memory")));
  EXPECT_TRUE(suite::other_route(pass("shm", "shm", "network")));
  EXPECT_TRUE(suite::other_route(pass("server", "server", "shared memory")));  // virtual nodes on one host
  EXPECT_FALSE(suite::other_route(pass("server", "server", "network")));       // both cross the network
  EXPECT_FALSE(suite::other_route(pass("mpi-rma", "mpi-rma", "shared memory")));  // it is MPI
  EXPECT_FALSE(suite::other_route(pass("server", "server", "")));             // unknown: not guessed
  const suite::RunConfig server = pass("server", "server", "shared memory");
  EXPECT_EQ(suite::route_note(server), "Armada through the server transport, the MPI baseline over shared memory");
  // Peer and local baselines never leave the host: another route for every transport but shm.
  EXPECT_TRUE(suite::baseline_other_route(server, "peer_load"));
  EXPECT_TRUE(suite::baseline_other_route(server, "memcpy"));
  EXPECT_FALSE(suite::baseline_other_route(pass("shm", "shm", "shared memory"), "local_atomic"));
  EXPECT_FALSE(suite::baseline_other_route(server, "per_segment"));  // Armada against Armada
}

// The link's own limit (the TCP socket baseline) is printed under the headline of the pass that
// measured it across hosts, with Armada's latencies and bandwidths as multiples of it; passes
// without it have no such line.
TEST(Headline, TheLinkLimitLineComparesArmadaWithTheSocketOfItsOwnPass) {
  suite::Report rep = two_passes();
  rep.runs[1].mpi_route = "network";  // ranks 0 and 1 on two hosts
  rep.records.push_back(record("contig", "sendrecv", "socket_pingpong_half", "latency", 8, 8, 0.5, 1));
  rep.records.push_back(record("contig", "sendrecv", "socket_stream", "bandwidth", 1 << 20, 1 << 20, 20, 1));
  const std::string table = suite::headline_table(rep);
  const std::size_t server = table.find("== server");
  ASSERT_NE(server, std::string::npos) << table;
  const std::size_t link = table.find("   link limit (a plain TCP socket between ranks 0 and 1, same launch): 8 B one-way "
                                      "0.5 us; 1 MiB stream 20 GB/s;\n");
  ASSERT_NE(link, std::string::npos) << table;
  EXPECT_GT(link, server) << "under its own pass";
  EXPECT_EQ(table.find("link limit"), link + 3) << "the shm pass (printed first) has no socket figures";
  EXPECT_EQ(table.find("link limit", link + 4), std::string::npos) << "one line per pass that measured it";
  EXPECT_NE(table.find("   armada as a multiple of it: 8 B put 2x; 8 B get 3x; fetch-add 1x; 1 MiB put 0.5x; 1 MiB get "
                       "0.4x;\n"),
            std::string::npos)
      << table;
}

// The headline figure: a series per measured pass (the unavailable one has none), each ratio
// measure at its own x, the speed-up with its range on a log axis, 1x marked, the overlap (points,
// not a ratio) left to the table, the machine in the title, the routes in words.
TEST(Headline, TheHeadlineFigureDrawsEachPassSpeedUpOnALogAxisWithOneMarked) {
  suite::Report rep = two_passes();
  rep.runs[0].host = "node7";
  rep.runs[0].cpu = "Some CPU, 2 CPUs";
  rep.runs[0].mpi = "Open MPI v4.1.4, package: Debian";
  const std::string s = suite::headline_gnuplot(rep, "pngcairo", "out/h.png");
  EXPECT_NE(s.find("set output \"out/h.png\"\n"), std::string::npos) << s;
  EXPECT_NE(s.find("set title \"Armada vs MPI, measured in the same launch: speed-up, higher = Armada faster "
                   "(transports shm, server)\\nhost "
                   "node7, Some CPU, 2 CPUs, 2 ranks, Open MPI v4.1.4, "),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("unset logscale x\nset logscale y\n"), std::string::npos) << "categories on x, whatever the plot before";
  EXPECT_NE(s.find("set label 1 \"1x = as fast as MPI\""), std::string::npos) << s;
  EXPECT_NE(s.find("set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead"), std::string::npos) << s;
  EXPECT_NE(s.find("title \"Armada shm transport (shared memory) vs MPI over shared memory\""), std::string::npos) << s;
  EXPECT_NE(s.find("title \"Armada server transport (node server thread (MPI two-sided)) vs MPI over shared memory: "
                   "different routes\""),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("mpi-rma transport"), std::string::npos) << "the unavailable pass has no series";
  EXPECT_EQ(s.find("overlap"), std::string::npos) << "overlap is in points, not drawn as a ratio";
  // 8 B put: MPI 2.0 us, Armada 1.0 us -> 2x [1.9/1.1 .. 2.2/0.95]; the shm series sits left of x = 0.
  EXPECT_NE(s.find("-0.06 2 1.72727 2.31579\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("vs a TCP socket"), std::string::npos) << "one host: no socket series";
  EXPECT_NE(s.find("set xtics (\"8 B put latency\" 0, \"8 B get latency\" 1, \"1 MiB put bandwidth\" 2, "
                   "\"1 MiB get bandwidth\" 3, \"fetch-add\" 4, \"lock + unlock\" 5)"),
            std::string::npos)
      << s;
  EXPECT_EQ(suite::headline_gnuplot(suite::Report{}, "png", "x.png"), "") << "nothing measured, nothing drawn";
}

// Across hosts the headline figure adds Armada against the TCP socket between the same ranks.
TEST(Headline, TheHeadlineFigureAddsTheSocketAcrossHosts) {
  suite::Report rep = two_passes();
  rep.runs[1].mpi_route = "network";  // the server pass between two hosts
  rep.records.push_back(record("contig", "sendrecv", "socket_pingpong_half", "latency", 8, 8, 4.0, 1));
  rep.records.back().stats = {4.0, 4.0, 4.0, 5};
  const std::string s = suite::headline_gnuplot(rep, "png", "h.png");
  EXPECT_NE(s.find("title \"Armada server transport vs a TCP socket between the same two hosts (the link's own limit)\""),
            std::string::npos)
      << s;
  // 8 B put: the socket's one-way 4 us, Armada 1.0 us -> 4x [4/1.1 .. 4/0.95], the third of three series.
  EXPECT_NE(s.find("$h2 << EOD\n0.12 4 3.63636 4.21053\n"), std::string::npos) << s;
  const std::string socket = s.substr(s.find("$h2 << EOD"), s.find("EOD\n", s.find("$h2 << EOD") + 10) - s.find("$h2 << EOD"));
  EXPECT_EQ(count(socket, "\n"), 4u) << "8 B put, 8 B get, fetch-add; not lock + unlock: " << socket;
  EXPECT_NE(s.find("title \"Armada server transport (node server thread (MPI two-sided)) vs MPI over the network\""),
            std::string::npos)
      << s;
}

// On one host the socket is no like pair for Armada's shared memory: said, never a multiple.
TEST(Headline, TheLinkLimitIsNotComparedWhenBothRanksShareAHost) {
  suite::Report rep = two_passes();  // the server pass: virtual nodes of one host
  rep.records.push_back(record("contig", "sendrecv", "socket_pingpong_half", "latency", 8, 8, 0.5, 1));
  const std::string table = suite::headline_table(rep);
  EXPECT_NE(table.find("   link limit: not compared (ranks 0 and 1 share a host; a TCP socket is the limit only "
                       "between hosts)\n"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("multiple of it"), std::string::npos) << table;
}

TEST(Headline, SevenMeasuresPerPassEachWithItsMpiBaseline) {
  const suite::Report rep = two_passes();
  const auto rows = suite::headline_rows(rep, 0);
  std::vector<std::string> measures, baselines;
  for (const auto& r : rows) measures.push_back(r.measure), baselines.push_back(r.baseline);
  EXPECT_EQ(measures, (std::vector<std::string>{"8 B put latency", "8 B get latency", "1 MiB put bandwidth",
                                                "1 MiB get bandwidth", "overlap, 1 MiB get_nb",
                                                "fetch-add", "lock + unlock"}));
  EXPECT_EQ(baselines, (std::vector<std::string>{"mpi_put_flush", "mpi_get_flush", "mpi_put_flush", "mpi_get_flush",
                                                 "mpi_rget", "mpi_fetch_and_op", "mpi_win_lock_excl"}));
  for (const auto& r : rows) {
    ASSERT_NE(r.armada, nullptr) << r.measure;
    ASSERT_NE(r.mpi, nullptr) << r.measure;
    EXPECT_EQ(r.armada->method, "armada");
    EXPECT_EQ(r.armada->run, 0);
    EXPECT_FALSE(r.other_route);
  }
  EXPECT_EQ(rows[2].armada->metric, "bandwidth");
  EXPECT_EQ(rows[2].armada->bytes, 1u << 20);
  EXPECT_EQ(rows[4].armada->x, 100);  // the overlap at a computation equal to one get, not at 0
  EXPECT_TRUE(rows[0].lower_is_better);
  EXPECT_FALSE(rows[2].lower_is_better);
  const auto server = suite::headline_rows(rep, 1);
  EXPECT_TRUE(server[0].other_route);
  EXPECT_EQ(server[0].armada->run, 1);
  EXPECT_EQ(server[6].armada, nullptr);  // no lock figure in that pass
}

TEST(Headline, TableLabelsRatiosOfAnotherRouteAndListsPassesThatDidNotRun) {
  const std::string t = suite::headline_table(two_passes());
  const auto shm = t.find("\n== shm (rank 1 through 'shm'; MPI over shared memory)\n");
  const auto server = t.find("\n== server (rank 1 through 'server'; MPI over shared memory)\n");
  ASSERT_NE(shm, std::string::npos) << t;
  ASSERT_NE(server, std::string::npos) << t;
  EXPECT_NE(t.find("\n== mpi-rma: not available in this build: no MPI RMA\n"), std::string::npos) << t;
  const std::string shm_part = t.substr(shm, server - shm), server_part = t.substr(server);
  // Same route: a plain ratio.
  EXPECT_NE(shm_part.find("8 B put latency (lower better)"), std::string::npos) << shm_part;
  EXPECT_NE(shm_part.find("1 us") , std::string::npos);
  EXPECT_NE(shm_part.find("mpi_put_flush 2 us"), std::string::npos) << shm_part;
  EXPECT_NE(shm_part.find("1 MiB put bandwidth (higher better)"), std::string::npos);
  EXPECT_EQ(shm_part.find("other route"), std::string::npos) << shm_part;
  // Always higher is better: latencies half of MPI's and bandwidths twice are both a speed-up of
  // 2, [MPI's min / armada's max .. MPI's max / armada's min] = [0.95 / 0.55 .. 1.1 / 0.475];
  // overlap 90 % against 45 %: 45 points more, [85.5 - 49.5 .. 99 - 42.75] (90 x 1.1 is a hair
  // above 99 in binary: 56.3).
  EXPECT_EQ(count(shm_part, " 2x [1.73..2.32]\n"), 6u) << shm_part;
  EXPECT_EQ(count(shm_part, " +45 pts [+36..+56.3]\n"), 1u) << shm_part;
  EXPECT_EQ(count(shm_part, "noisy"), 0u) << shm_part;
  // Another route: never a plain speed-up, and a footnote that says which routes.
  EXPECT_EQ(count(server_part, "other route* (2x [1.73..2.32])"), 5u) << server_part;
  EXPECT_EQ(count(server_part, "other route* (+45 pts [+36..+56.3])"), 1u) << server_part;
  EXPECT_EQ(count(server_part, " 2x [1.73..2.32]\n"), 0u) << server_part;
  const auto lock = server_part.find("lock + unlock (lower better)");
  ASSERT_NE(lock, std::string::npos) << server_part;
  EXPECT_EQ(server_part.substr(lock, server_part.find('\n', lock) - lock).substr(42), "not measured in this run") << server_part;
  EXPECT_NE(server_part.find("* other route: Armada through the server transport, the MPI baseline over shared memory; "
                             "the speed-up compares two routes, not two implementations."),
            std::string::npos)
      << server_part;
}

TEST(Plot, OneColourPerMethodInEveryPlotOneDashPerOpAndRouteInTheLegend) {
  suite::Report rep = two_passes();
  // Methods without a colour of their own: theirs follows their name, not the plot they are in.
  rep.records.push_back(record("contig", "put", "zz_new", "latency", 8, 8, 1.0, 1));
  rep.records.push_back(record("contig", "put", "aa_new", "latency", 8, 8, 1.0, 0));
  rep.records.push_back(record("contig", "get", "zz_new", "latency", 8, 8, 1.0, 0));
  suite::PlotSpec put{"lat.png", "t", "contig", "latency", 0, {"put"}, "x", "y", true, true, true};
  suite::PlotSpec get = put;
  get.ops = {"get"};
  const std::string s = suite::gnuplot_script(rep, {put}, "png", "");
  // Curves in order: armada [shm], mpi [shm], armada [server], mpi [server, another route]: the
  // same method in the same colour and point type in both passes.
  EXPECT_NE(s.find("$d0 using 1:2:3:4 with yerrorlines lc rgb \"#1f77b4\" dt 1 pt 7 title \"put armada [shm]\""), std::string::npos) << s;
  EXPECT_NE(s.find("$d1 using 1:2:3:4 with yerrorlines lc rgb \"#d62728\" dt 1 pt 5 title \"put mpi_put_flush [shm]\""), std::string::npos) << s;
  EXPECT_NE(s.find("$d2 using 1:2:3:4 with yerrorlines lc rgb \"#1f77b4\" dt 1 pt 7 title \"put armada [server]\""), std::string::npos) << s;
  EXPECT_NE(s.find("$d3 using 1:2:3:4 with yerrorlines lc rgb \"#d62728\" dt 1 pt 5 title \"put mpi_put_flush [server pass; "
                   "baseline over shared memory]\""),
            std::string::npos)
      << s;
  // aa_new, zz_new: the report's first and second unlisted methods, in the put plot and alone in the get plot.
  EXPECT_NE(s.find("lc rgb \"#e6550d\" dt 1 pt 1 title \"put aa_new [shm]\""), std::string::npos) << s;
  EXPECT_NE(s.find("lc rgb \"#31a354\" dt 1 pt 2 title \"put zz_new [server]\""), std::string::npos) << s;
  const std::string g = suite::gnuplot_script(rep, {get}, "png", "");
  EXPECT_NE(g.find("lc rgb \"#31a354\" dt 2 pt 2 title \"get zz_new [shm]\""), std::string::npos) << g;
  EXPECT_NE(g.find("lc rgb \"#d62728\" dt 2 pt 5 title \"get mpi_get_flush [shm]\""), std::string::npos) << g;
}

// The standard plots: at most 4 curves, named in words; on one host memcpy is the fourth curve
// and the TCP socket none, across hosts the reverse; a baseline on another route than Armada says so.
TEST(Plot, StandardPlotsHaveAtMostFourCurvesInWords) {
  suite::Report rep = two_passes();
  rep.runs.push_back(pass("mpi-rma", "mpi-rma", "network"));  // a third pass, across hosts
  for (int run : {1, 3})
    for (std::size_t b : {8u, 64u}) {
      for (const char* m : {"armada", "mpi_put_flush", "memcpy", "zz_new"})
        rep.records.push_back(record("contig", "put", m, "latency", b, static_cast<double>(b), 1.0, run));
      for (const char* m : {"mpi_pingpong_half", "socket_pingpong_half"})
        rep.records.push_back(record("contig", "sendrecv", m, "latency", b, static_cast<double>(b), 1.0, run));
    }
  rep.records.push_back(record("contig", "put", "armada", "latency", 64, 64, 1.0, 0));
  const auto plots = suite::standard_plots(rep);
  for (const auto& p : plots) EXPECT_LE(p.curves.size(), 4u) << p.file;
  auto script_of = [&](const std::string& file) {
    for (const auto& p : plots)
      if (p.file == file) return suite::gnuplot_script(rep, {p}, "png", "");
    ADD_FAILURE() << "no plot " << file;
    return std::string();
  };
  const std::string server = script_of("server_contig_put_latency.png");
  EXPECT_NE(server.find("title \"Armada put\""), std::string::npos) << server;
  EXPECT_NE(server.find("title \"MPI_Put + flush (over shared memory; Armada through the server transport)\""),
            std::string::npos)
      << server;
  EXPECT_NE(server.find("title \"MPI send/recv (half a round trip) (over shared memory; "), std::string::npos) << server;
  EXPECT_NE(server.find("title \"memcpy (one rank's own memory) (over local memory; "), std::string::npos) << server;
  EXPECT_EQ(server.find("socket"), std::string::npos) << "one host: no TCP socket curve";
  EXPECT_EQ(server.find("zz_new"), std::string::npos) << "a method outside the plot's curves is not drawn";
  const std::string across = script_of("mpi-rma_contig_put_latency.png");
  EXPECT_NE(across.find("title \"TCP socket (half a round trip)\""), std::string::npos) << across;
  EXPECT_EQ(across.find("memcpy"), std::string::npos) << "across hosts the socket, not memcpy, is the fourth curve";
  EXPECT_EQ(count(across, " with yerrorlines "), 4u) << across;
}

// --quick: a smoke test, said in every title and drawn as points (no line suggests a trend),
// each curve a little to the side so that none hides another; every tick labelled.
TEST(Plot, QuickRunsAreSmokeTestsDrawnAsPointsWithEveryTickLabelled) {
  suite::Report rep = two_passes();
  rep.quick = true;
  for (std::size_t b : {64u, 1024u})
    rep.records.push_back(record("contig", "put", "armada", "latency", b, static_cast<double>(b), 1.0, 0));
  std::vector<suite::PlotSpec> plots;
  for (const auto& p : suite::standard_plots(rep))
    if (p.family == "contig") plots.push_back(p);
  ASSERT_EQ(plots.size(), 1u);  // shm put latency: 3 sizes; the server pass has 1
  EXPECT_EQ(plots[0].file, "shm_contig_put_latency.png");
  EXPECT_NE(plots[0].title.find("\nSMOKE TEST (--quick: short repetitions, not a measurement); host "), std::string::npos)
      << plots[0].title;
  const std::string s = suite::gnuplot_script(rep, plots, "png", "");
  EXPECT_EQ(count(s, " with yerrorlines "), 0u) << s;
  EXPECT_EQ(count(s, " with yerrorbars "), 2u) << s;
  // Two curves, 1.2 % of the axis (log 2 of 8 .. 1024) to either side: factors 128^-0.006, 128^0.006.
  EXPECT_NE(s.find("$d0 using ($1*0.971307):2:3:4"), std::string::npos) << s;
  EXPECT_NE(s.find("$d1 using ($1*1.02954):2:3:4"), std::string::npos) << s;
  EXPECT_NE(s.find("set xtics (\"8 B\" 8, \"64 B\" 64, \"1 KiB\" 1024)\n"), std::string::npos) << s;
  // y from 0.9 (the added records' min) to 2.2 (the MPI figure's max), 1.25 of margin: 0.72 ..
  // 2.75, where 1-2-5 gives only 1 and 2, so every 1..9 multiple.
  EXPECT_NE(s.find("set yrange [0.72:2.75]\nset xtics"), std::string::npos) << s;
  EXPECT_NE(s.find("set ytics (0.8, 0.9, 1, 2)\n"), std::string::npos) << s;
}

TEST(Plot, AxesAreFittedToTheDataAndLinesBreakWhereACurveWasNotMeasured) {
  suite::Report rep;
  rep.runs = {pass("shm", "shm", "shared memory")};
  for (std::size_t b : {8u, 64u, 512u, 4096u})
    rep.records.push_back(record("contig", "put", "armada", "latency", b, static_cast<double>(b), 2.0, 0));
  for (std::size_t b : {8u, 4096u})  // measured at two of the four sizes only
    rep.records.push_back(record("contig", "put", "mpi_put_flush", "latency", b, static_cast<double>(b), 4.0, 0));
  suite::PlotSpec p{"lat.png", "t", "contig", "latency", 0, {"put"}, "x", "y", true, true, true};
  const std::string s = suite::gnuplot_script(rep, {p}, "png", "");
  // y: from the smallest min (0.9 x 2) to the largest max (1.25 x 4), a factor 1.25 of margin.
  EXPECT_NE(s.find("set yrange [1.44:6.25]"), std::string::npos) << s;
  EXPECT_NE(s.find("set xrange [6.4:5120]"), std::string::npos) << s;
  // The MPI curve has a point at 8 and 4096 and a break between (no line through 64 and 512).
  EXPECT_NE(s.find("$d1 << EOD\n8 4 3.6 5\n\n4096 4 3.6 5\nEOD\n"), std::string::npos) << s;
  EXPECT_NE(s.find("$d0 << EOD\n8 2 1.8 2.5\n64 2 1.8 2.5\n512 2 1.8 2.5\n4096 2 1.8 2.5\nEOD\n"), std::string::npos) << s;
}

// The text table keeps its columns whatever the names: a long op name goes on its own line, a
// long baseline name pushes only the next column, which absorbs it (its header ends where every
// row's last column ends).
TEST(Report, TextTableKeepsItsColumnsWithLongNames) {
  const std::string head =
      bench::table_line({"op", "size", "var", "armada", "unit", "[min .. max]", "baseline", "value", "ratio"});
  const std::vector<std::string> cells = {"put", "8 B", "c", "1.5", "us", "[1.4 .. 1.6]", "mpi_put", "1.2", "1.25"};
  const std::string row = bench::table_line(cells);
  EXPECT_EQ(row.size(), head.size()) << head << "\n" << row;
  EXPECT_EQ(row.find("8 B") + 3, head.find("size") + 4);  // right-aligned under its title
  EXPECT_EQ(row.find("us"), head.find("unit"));           // left-aligned under its title

  auto long_name = cells;
  long_name[0] = "arrays.get.strided.irregular-distribution.pipelined";
  const std::string two = bench::table_line(long_name);
  const auto newline = two.find('\n');
  ASSERT_NE(newline, std::string::npos) << two;
  EXPECT_EQ(two.substr(0, newline), long_name[0]);
  const std::string second = two.substr(newline + 1);
  EXPECT_EQ(second.size(), head.size()) << head << "\n" << second;
  EXPECT_EQ(second.find("us"), head.find("unit"));
  EXPECT_EQ(second.find("[1.4"), head.find("[min"));

  auto long_baseline = cells;
  long_baseline[6] = "MPI_Get+MPI_Win_flush_local";
  const std::string pushed = bench::table_line(long_baseline);
  EXPECT_EQ(pushed.find('\n'), std::string::npos);
  EXPECT_EQ(pushed.find("us"), head.find("unit"));
  EXPECT_EQ(pushed.size(), head.size()) << head << "\n" << pushed;  // the value column took it up
}

// ---- the speed-up column and the verdict --------------------------------------------------------

namespace {

suite::Record figure(const std::string& metric, double median, double min, double max) {
  suite::Record r = record("contig", "put", "armada", metric, 8, 8, median, 0);
  r.stats = {median, min, max, 5};
  return r;
}

suite::Speedup made(double median, double min, double max, bool points = false) {
  suite::Speedup s;
  s.valid = true;
  s.points = points;
  s.median = median;
  s.min = min;
  s.max = max;
  return s;
}

}  // namespace

// Higher is always better: times are inverted, bandwidths not, percentages are differences; the
// range pairs Armada's worst with the baseline's best and the reverse.
TEST(Speedup, TimesAreInvertedBandwidthsNotOverlapIsADifference) {
  const suite::Speedup t = suite::speedup(figure("latency", 1, 0.8, 1.25), figure("latency", 3, 2.5, 4), true);
  ASSERT_TRUE(t.valid);
  EXPECT_FALSE(t.points);
  EXPECT_DOUBLE_EQ(t.median, 3);
  EXPECT_DOUBLE_EQ(t.min, 2);  // 2.5 / 1.25
  EXPECT_DOUBLE_EQ(t.max, 5);  // 4 / 0.8
  EXPECT_EQ(suite::speedup_text(t), "3x [2..5]");
  const suite::Speedup b = suite::speedup(figure("bandwidth", 10, 8, 12), figure("bandwidth", 5, 4, 6), false);
  EXPECT_DOUBLE_EQ(b.median, 2);
  EXPECT_DOUBLE_EQ(b.min, 8.0 / 6);
  EXPECT_DOUBLE_EQ(b.max, 3);  // 12 / 4
  EXPECT_EQ(suite::speedup_text(b), "2x [1.33..3]");
  // A slower Armada reads below 1 whatever the unit.
  EXPECT_LT(suite::speedup(figure("latency", 3, 3, 3), figure("latency", 1, 1, 1), true).median, 1);
  EXPECT_LT(suite::speedup(figure("bandwidth", 1, 1, 1), figure("bandwidth", 3, 3, 3), false).median, 1);
  const suite::Speedup o = suite::speedup(figure("overlap", 80, 70, 90), figure("overlap", 20, 10, 30), false);
  ASSERT_TRUE(o.points);
  EXPECT_DOUBLE_EQ(o.median, 60);
  EXPECT_DOUBLE_EQ(o.min, 40);  // 70 - 30
  EXPECT_DOUBLE_EQ(o.max, 80);  // 90 - 10
  EXPECT_EQ(suite::speedup_text(o), "+60 pts [+40..+80]");
  EXPECT_EQ(suite::speedup_text(suite::speedup(figure("overlap", 0, 0, 0), figure("overlap", 0, 0, 0), false)),
            "+0 pts [+0..+0]");  // 0 % against 0 %: no division
  // Nothing to divide by: not valid, printed as "-".
  EXPECT_FALSE(suite::speedup(figure("latency", 0, 0, 0), figure("latency", 1, 1, 1), true).valid);
  EXPECT_FALSE(suite::speedup(figure("bandwidth", 1, 1, 1), figure("bandwidth", 0, 0, 0), false).valid);
  EXPECT_EQ(suite::speedup_text(suite::Speedup{}), "-");
}

TEST(Speedup, WordsOnParUnclearFasterSlower) {
  EXPECT_EQ(suite::speedup_word(made(1.05, 1.02, 1.08)), "on par");   // within 10 %, even if the range is clear
  EXPECT_EQ(suite::speedup_word(made(0.93, 0.5, 2)), "on par");
  EXPECT_EQ(suite::speedup_word(made(1.5, 0.9, 2)), "unclear");       // the repetitions allow slower too
  EXPECT_EQ(suite::speedup_word(made(0.5, 0.3, 1.0)), "unclear");     // 1 itself is inside
  EXPECT_EQ(suite::speedup_word(made(1.5, 1.2, 2)), "faster");
  EXPECT_EQ(suite::speedup_word(made(0.5, 0.4, 0.6)), "slower");
  EXPECT_EQ(suite::speedup_word(made(3, -10, 20, true)), "on par");   // within 5 points
  EXPECT_EQ(suite::speedup_word(made(20, -5, 40, true)), "unclear");
  EXPECT_EQ(suite::speedup_word(made(20, 10, 30, true)), "more hidden");
  EXPECT_EQ(suite::speedup_word(made(-20, -30, -10, true)), "less hidden");
  EXPECT_EQ(suite::speedup_word(suite::Speedup{}), "");
}

// Noisy: a spread of more than 25 % (times, bandwidths) or 25 points (percentages).
TEST(Speedup, NoisyFiguresAreThoseWhoseRepetitionsSpreadOver25Percent) {
  EXPECT_TRUE(suite::noisy(figure("latency", 1, 0.9, 1.2)));     // 1.2 / 0.9 = 1.33
  EXPECT_FALSE(suite::noisy(figure("latency", 1, 0.95, 1.1)));   // 1.16
  EXPECT_TRUE(suite::noisy(figure("bandwidth", 5, 2, 6)));
  EXPECT_FALSE(suite::noisy(figure("bandwidth", 5, 4.9, 5.1)));
  EXPECT_TRUE(suite::noisy(figure("overlap", 50, 0, 100)));      // the 0 - 100 % swing
  EXPECT_FALSE(suite::noisy(figure("overlap", 50, 40, 60)));
  EXPECT_FALSE(suite::noisy(figure("overlap", 5, 0, 20)));       // 20 points, though 20 / 0 is no ratio
  EXPECT_FALSE(suite::noisy(figure("latency", 0, 0, 0)));
}

TEST(Verdict, TheChoiceNamesThePassWhoseFiguresApply) {
  EXPECT_EQ(suite::pass_of_choice("none (one node: shared memory reaches every rank)"), "shm");
  EXPECT_EQ(suite::pass_of_choice("server (ARMADA_TRANSPORT=auto: the fallback)"), "server");
  EXPECT_EQ(suite::pass_of_choice("rdma (ARMADA_TRANSPORT=auto: UCX reaches every rank ...)"), "rdma");
  EXPECT_EQ(suite::pass_of_choice("mpi-rma (ARMADA_TRANSPORT=server, below MPI_THREAD_MULTIPLE)"), "mpi-rma");
  EXPECT_EQ(suite::pass_of_choice("none (ARMADA_TRANSPORT=none: operations to other nodes fail)"), "");
  EXPECT_EQ(suite::pass_of_choice(""), "");
  EXPECT_EQ(suite::pass_of_choice("unknown (rma::init refused this launch's settings: ...)"), "");
}

TEST(Verdict, SaysWhichTransportAJobUsesAndEachAgainstMpiInWordsWithTheNumbers) {
  suite::Report rep = two_passes();
  rep.job_choice = "none (one node: shared memory reaches every rank)";
  rep.between_nodes_choice = "server (ARMADA_TRANSPORT=auto: the fallback)";
  const std::string v = suite::verdict(rep);
  EXPECT_EQ(v.find("\n######## verdict: what to conclude from this launch ########\n"), 0u) << v;
  EXPECT_EQ(v.find("SMOKE TEST"), std::string::npos) << "not a --quick run";
  EXPECT_NE(v.find("\nA job launched like this one (2 ranks, same environment) runs on inter-node transport none (one node: shared memory "
                   "reaches every rank); the shm figures below apply\n"),
            std::string::npos) << v;
  EXPECT_NE(v.find("\nBetween nodes it would run on server (ARMADA_TRANSPORT=auto: the fallback); the server figures below apply\n"),
            std::string::npos) << v;
  const auto shm = v.find("\nshm (what a job here uses) against MPI RMA of the same pass:\n");
  const auto server = v.find("\nserver against MPI RMA of the same pass (other route: Armada through the server transport, "
                             "the MPI baseline over shared memory; compares routes):\n");
  ASSERT_NE(shm, std::string::npos) << v;
  ASSERT_NE(server, std::string::npos) << v;
  EXPECT_LT(shm, server);
  const std::string shm_part = v.substr(shm, server - shm + 1), server_part = v.substr(server);
  EXPECT_NE(shm_part.find("\n  latency: 8 B put 2x faster (1 vs 2 us); 8 B get 2x faster (1.5 vs 3 us)\n"), std::string::npos) << v;
  EXPECT_NE(shm_part.find("\n  bandwidth: 1 MiB put 2x faster (10 vs 5 GB/s); 1 MiB get 2x faster (8 vs 4 GB/s)\n"),
            std::string::npos) << v;
  EXPECT_NE(shm_part.find("\n  atomics: fetch-add 2x faster (0.5 vs 1 us); lock + unlock 2x faster (0.25 vs 0.5 us)\n"),
            std::string::npos) << v;
  EXPECT_NE(shm_part.find("\n  overlap: 1 MiB get_nb 45 pts more hidden (90 vs 45 %)\n"), std::string::npos) << v;
  EXPECT_NE(server_part.find("\n  atomics: fetch-add 2x faster (0.5 vs 1 us)\n"), std::string::npos) << "no lock figure: " << v;
  EXPECT_EQ(v.find("mpi-rma"), std::string::npos) << "the pass that did not run has no verdict: " << v;
  EXPECT_EQ(v.find("NOISY"), std::string::npos) << v;
}

TEST(Verdict, SlowerUnclearAndNoisyFiguresAreSaidSoAndQuickIsASmokeTest) {
  suite::Report rep = two_passes();
  rep.quick = true;
  rep.job_choice = "rdma (ARMADA_TRANSPORT=auto: UCX ...)";
  for (suite::Record& r : rep.records) {
    if (r.run != 1 || r.method != "armada") continue;
    if (r.op == "put" && r.metric == "latency") r.stats = {4, 3.8, 6, 5};          // 2x slower, spread 58 %
    if (r.op == "get" && r.metric == "bandwidth") r.stats = {2, 1, 6, 5};          // 0.5x, but up to 1.58x
    if (r.op == "get_nb" && r.x == 100) r.stats = {30, 28, 32, 5};                  // 15 points less
  }
  const std::string v = suite::verdict(rep);
  EXPECT_NE(v.find("\nSMOKE TEST (--quick): "), std::string::npos) << v;
  EXPECT_NE(v.find("\nA job launched like this one (2 ranks, same environment) runs on inter-node transport rdma (ARMADA_TRANSPORT=auto: UCX ...); "
                   "not measured in this run\n"),
            std::string::npos) << v;
  EXPECT_NE(v.find("\nshm against MPI RMA"), std::string::npos) << "no pass is what the job uses: " << v;
  EXPECT_NE(v.find("\n  latency: 8 B put 2x slower (4 vs 2 us) NOISY; 8 B get 2x faster"), std::string::npos) << v;
  EXPECT_NE(v.find("1 MiB get unclear at 0.5x (2 vs 4 GB/s) NOISY\n"), std::string::npos) << v;
  EXPECT_NE(v.find("\n  overlap: 1 MiB get_nb 15 pts less hidden (30 vs 45 %)\n"), std::string::npos) << v;
  EXPECT_NE(v.find("\nNOISY (repetitions of Armada's or MPI's figure spread over 25 %; do not conclude from them): "
                   "server 8 B put, server 1 MiB get\n"),
            std::string::npos) << v;
  // The headline marks the same rows.
  const std::string t = suite::headline_table(rep);
  const std::string server_part = t.substr(t.find("\n== server"));
  EXPECT_EQ(count(server_part, "  noisy\n"), 2u) << server_part;
  EXPECT_NE(server_part.find("other route* (0.5x [0.317..0.579])  noisy\n"), std::string::npos) << server_part;
}
