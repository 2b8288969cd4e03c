// armada-bench's results: flat records (one per method, transport and size), written as one
// JSON document and as CSV, read back from JSON, and drawn as PNG plots by a generated gnuplot
// script (bandwidth and latency versus size, one curve per method and transport, log axes).
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
  int node_size = 0;            ///< ARMADA_NODE_SIZE of the pass
  int ranks = 0;
  int nodes = 0;
  std::string mpi;              ///< MPI_Get_library_version
  std::string host;
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
  std::vector<RunConfig> runs;
  std::vector<Record> records;
};

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

/// A plot: records of `family` and `metric`, optionally only one segment size, against x.
struct PlotSpec {
  std::string file;       ///< PNG file name (no directory)
  std::string title;
  std::string family, metric;
  std::size_t seg_bytes = 0;  ///< 0: any
  std::vector<std::string> ops;  ///< only these ops (empty: any)
  std::string xlabel, ylabel;
  bool logx = true, logy = true;
  bool bytes_axis = false;    ///< x is a byte count: tics as 8 B, 4 KiB, 1 MiB
};

/// The standard plots that have data in `report`: latency and bandwidth versus size of the
/// contiguous put, get and acc (each with the MPI baselines), strided 16 B and 1 KiB segments
/// versus the segment count, overlap versus computation, fence versus the number of targets.
std::vector<PlotSpec> standard_plots(const Report& report);

/// The label of a record's curve: "op method [transport]".
std::string curve_label(const Report& report, const Record& r);

/// A gnuplot script drawing `plots` into `dir` with `terminal` ("pngcairo" or "png"): data as
/// inline datablocks (x median min max), one curve per label with min–max error bars; one
/// colour per op and method, one dash and point type per transport.
std::string gnuplot_script(const Report& report, const std::vector<PlotSpec>& plots, const std::string& terminal,
                           const std::string& dir);

/// The PNG terminal of the installed gnuplot: "pngcairo" if it has one, else "png". Throws
/// std::runtime_error saying what to install when gnuplot is missing or has neither.
std::string gnuplot_png_terminal();

}  // namespace armada::bench::suite
