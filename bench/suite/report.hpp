// armada-bench's results: flat records (one per method, transport and size), written as one
// JSON document and as CSV, read back from JSON, summed up in a verdict (what to conclude) and a
// headline table per transport (the figures a cluster administrator reads first, each against its
// MPI baseline, as a speed-up), and drawn as PNG plots by a generated gnuplot script (one set per
// transport, one colour per method). The verdict and headline are in summary.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/stats.hpp"

namespace armada::bench::suite {

/// The configuration of one transport pass, recorded with each of its results.
struct RunConfig {
  std::string transport;        ///< requested: "shm", "server", "mpi-rma"
  std::string status = "ok";    ///< "ok", or why the pass did not run ("not available in this build: ...")
  std::string route;            ///< what rma::transport_name(1) reported
  /// How the MPI baselines reach rank 1: "shared memory" (ranks 0 and 1 share a host), "network",
  /// or "" (unknown: a results file written before this was recorded).
  std::string mpi_route;
  int node_size = 0;            ///< ARMADA_NODE_SIZE of the pass
  int ranks = 0;
  int nodes = 0;
  std::string mpi;              ///< MPI_Get_library_version
  std::string host;
  std::string cpu;              ///< CPU model and count ("Intel(R) Xeon(R) ..., 2 CPUs"); "" in older files
  std::string date;             ///< UTC, ISO 8601
  double loadavg_start = -1;
  double loadavg_end = -1;
};

struct Record {
  std::string family;     ///< contig, strided, overlap, aggregate, atomic, fence
  std::string op;         ///< put, get, acc, put_strided, fetch_add, ...
  std::string method;     ///< armada, per_segment, vector, aggregate, mpi_put_flush, mpi_pingpong_half, ...
  std::string metric;     ///< latency (unit us), bandwidth (GB/s), overlap (%), time (us)
  std::string unit;       ///< "us", "GB/s", "%"
  std::size_t bytes = 0;  ///< bytes moved per operation (0 when not a transfer)
  std::size_t seg_bytes = 0, nseg = 0;  ///< strided and vector shapes
  double x = 0;           ///< the plots' x value (bytes, segments, compute fraction in %)
  Stats stats;            ///< median, min, max over the repetitions; count = repetitions
  double p25 = 0, p75 = 0;
  std::size_t iterations = 0;  ///< iterations per repetition (calibrated)
  bool verified = false;  ///< the data this method moved was checked
  int run = 0;            ///< index into the runs (its RunConfig)
};

struct Report {
  std::string command;    ///< the command line
  std::string started;    ///< UTC
  bool quick = false;     ///< --quick: a smoke test (short repetitions), not a measurement
  /// rma::transport_choice() of a job launched like this one (the launch's own ARMADA_TRANSPORT
  /// and ARMADA_NODE_SIZE): "none (one node: ...)", "server (ARMADA_TRANSPORT=auto: ...)"; and,
  /// when that job has one node, the choice between virtual nodes (--vnode-size). "" = not probed.
  std::string job_choice, between_nodes_choice;
  std::vector<RunConfig> runs;
  std::vector<Record> records;
};

/// True when the MPI baselines of this pass travel another route than Armada's operations, so
/// that armada / MPI compares routes, not implementations: the server transport while MPI goes
/// over shared memory (virtual nodes on one host), or shm while MPI crosses a network. The
/// mpi-rma transport is MPI itself: always the same route. Unknown routes count as the same.
bool other_route(const RunConfig& run);
/// "Armada through the server transport, the MPI baseline over shared memory" (for labels).
std::string route_note(const RunConfig& run);
/// True for the methods that are MPI baselines (their names start with "mpi_").
bool is_mpi_baseline(const std::string& method);
/// How baseline `method` reaches its data: the MPI route for "mpi_*", "shared memory" for
/// plain loads and stores into the target's memory ("peer_*"), "local memory" for copies inside
/// the origin ("memcpy", "local_*"); "" for Armada methods.
std::string baseline_route(const RunConfig& run, const std::string& method);
/// True when Armada's figure and baseline `method` of this pass travel different routes: for
/// MPI baselines other_route(run); for peer and local baselines, any pass but shm.
bool baseline_other_route(const RunConfig& run, const std::string& method);

/// One line of the headline table: an Armada figure against its MPI baseline.
struct HeadlineRow {
  std::string measure;      ///< "8 B get latency", "1 MiB put bandwidth", "overlap, 1 MiB get_nb", ...
  std::string group;        ///< what the verdict sums it up under: "latency", "bandwidth", "atomics", "overlap"
  std::string name;         ///< its short name in the verdict: "8 B put", "fetch-add", ...
  std::string unit;         ///< "us", "GB/s", "%"
  bool lower_is_better = true;
  std::string baseline;     ///< the MPI baseline's method, e.g. "mpi_get_flush"
  const Record* armada = nullptr;   ///< nullptr: not measured in this run
  const Record* mpi = nullptr;      ///< nullptr: no baseline (e.g. MPI window unavailable)
  bool other_route = false; ///< the ratio compares routes (see other_route())
};

/// The headline rows of run `run` (always the same seven measures, in this order: 8 B put and
/// get latency, 1 MiB put and get bandwidth, overlap of a 1 MiB get_nb with computation equal to a
/// blocking get, fetch-add, lock + unlock); a measure the run did not take has armada == nullptr.
std::vector<HeadlineRow> headline_rows(const Report& report, int run);

/// The headline table of every pass, as text: per transport the seven rows with the Armada
/// figure, the MPI baseline and the speed-up with its range (speedup_text; always higher is
/// better); a speed-up between different routes is printed as "other route" with the figure in
/// parentheses and a footnote saying which routes; a figure too noisy to conclude from is marked
/// "noisy"; a pass that did not run is listed with its status.
std::string headline_table(const Report& report);

/// Armada against a baseline, as one figure where higher is always better: for times how many
/// times faster Armada is (baseline / armada), for bandwidths armada / baseline, for percentages
/// (overlap) the points more hidden than the baseline (armada - baseline). min and max are the
/// extremes the repetitions allow (Armada's worst against the baseline's best, and the reverse).
struct Speedup {
  bool valid = false;    ///< false: no baseline, or a zero figure to divide by
  bool points = false;   ///< a difference in percentage points, not a ratio
  double median = 0, min = 0, max = 0;
};
Speedup speedup(const Record& armada, const Record& baseline, bool lower_is_better);
/// "6.1x [5.2-7]" for ratios, "+12 pts [-3..+30]" for points, "-" when not valid.
std::string speedup_text(const Speedup& s);
/// How a speed-up reads: "on par" when its median is within 10 % of 1 (overlap: 5 points of 0);
/// else "unclear" when its [min..max] reaches both sides of 1 (0 points); else "faster" or
/// "slower" ("more hidden" or "less hidden"); "" when not valid.
std::string speedup_word(const Speedup& s);

/// True when a figure's repetitions spread too much to conclude from: max/min - 1 above 25 % for
/// times and bandwidths, max - min above 25 points for percentages.
bool noisy(const Record& r);

/// The pass whose figures a transport choice (rma::transport_choice()) is about: "shm" for "none
/// (one node: ...)", the transport's name otherwise ("server (ARMADA_TRANSPORT=auto: ...)" ->
/// "server"), "" when operations to other nodes are off or the choice is unknown.
std::string pass_of_choice(const std::string& choice);

/// What to conclude, in a few lines for the top of the report: which transport a job launched
/// like this one uses and why (Report::job_choice), a smoke-test warning for --quick, and per
/// measured pass how Armada compares with that pass's MPI baseline on latency, bandwidth, atomics
/// and overlap, in words with the numbers, naming the figures too noisy to conclude from.
std::string verdict(const Report& report);

/// The whole report as one JSON document:
/// {"tool":"armada-bench","format":1,"command":..,"started":..,"runs":[{..}],"results":[{..}]},
/// each result repeating its run's configuration (transport, node_size, ranks, mpi, host, date).
std::string to_json(const Report& report);
/// Reads a document written by to_json. Throws std::runtime_error on malformed input or a
/// missing field.
Report from_json(const std::string& text);

/// The CSV header line (with newline), and all records (header first), one per line.
std::string csv_header();
std::string to_csv(const Report& report);

/// One curve of a plot: the records of `op` and `method`, named `words` in the legend.
struct Curve {
  std::string op, method, words;
};

/// A plot: records of `family` and `metric`, optionally only one segment size and one pass, against x.
struct PlotSpec {
  std::string file;       ///< PNG file name (no directory)
  std::string title;
  std::string family, metric;
  std::size_t seg_bytes = 0;  ///< 0: any
  std::vector<std::string> ops;  ///< only these ops (empty: any)
  std::string xlabel, ylabel;
  bool logx = true, logy = true;
  bool bytes_axis = false;    ///< x is a byte count: tics as 8 B, 4 KiB, 1 MiB
  int run = -1;               ///< only this pass's records (-1: every pass)
  /// The curves, in words a reader knows ("Armada put", "MPI_Put + flush"); at most 4 in the
  /// standard plots. Empty: every record of the family and metric, labelled by curve_label.
  std::vector<Curve> curves{};
};

/// The standard plots that have data in `report`, one set per measured pass (the file name starts
/// with the transport: "shm_contig_put_latency.png"), each with that pass's own baselines and at
/// most 4 curves named in words: latency and bandwidth versus size of the contiguous put, get and
/// acc (Armada, MPI one-sided, MPI send/recv, and memcpy on one host or the TCP socket across
/// hosts), strided put and get of 16 B and 1 KiB segments versus the segment count, overlap
/// versus computation, fence versus the number of targets. Titles name the pass, host, CPU, ranks
/// and date, and "SMOKE TEST" for --quick.
std::vector<PlotSpec> standard_plots(const Report& report);

/// The label of a record's curve: "op method [transport]", and for an MPI baseline of a pass
/// whose MPI travels another route "op method [transport pass; MPI over shared memory]".
std::string curve_label(const Report& report, const Record& r);

/// A gnuplot script drawing `plots` into `dir` with `terminal` ("pngcairo" or "png"): data as
/// inline datablocks (x median min max), one curve per label with min–max error bars and a point
/// at every measured x; a curve that skips an x of its plot's sweep is broken there (no line
/// through a size it did not measure); a --quick report is drawn as points only. One colour and
/// point type per method (the same in every plot), one dash type per op; a tick labelled at every
/// measured x; the legend below the plot; axis ranges fitted to the data drawn (no empty decades).
std::string gnuplot_script(const Report& report, const std::vector<PlotSpec>& plots, const std::string& terminal,
                           const std::string& dir);

/// The headline figure of a report, drawn into `png` (a path) with `terminal`: per measured pass
/// (one series each, at most 4), Armada's speed-up over the MPI baseline of the same launch for
/// each ratio figure of the headline table (latencies, bandwidths, atomics; overlap is in points,
/// not a ratio, and stays in the table), median with the repetitions' [min..max], on a log axis
/// with 1x marked; across hosts one more series, Armada against the TCP socket between the same
/// two ranks (the link's own limit); the title names the transports, the machine, the ranks, MPI
/// and the date. "" when no pass has a ratio to draw.
std::string headline_gnuplot(const Report& report, const std::string& terminal, const std::string& png);

/// The PNG terminal of the installed gnuplot: "pngcairo" if it has one, else "png". Throws
/// std::runtime_error saying what to install when gnuplot is missing or has neither.
std::string gnuplot_png_terminal();

}  // namespace armada::bench::suite
