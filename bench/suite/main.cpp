// armada-bench: the cluster benchmark suite. One launch measures every selected family on every
// selected transport, each transport in its own rma::init ... rma::finalize pass (the runtime
// reads ARMADA_TRANSPORT and ARMADA_NODE_SIZE at init), with the MPI baselines in the same
// launch; it prints a table, writes JSON, CSV, a gnuplot script and PNG plots, and ends with the
// verdict (the transport a job here uses, each transport against MPI in words) and the headline
// table per transport (suite/report.hpp), also written to NAME-report.txt.
//
//   mpiexec -n 2 armada-bench [FAMILY] [--transports shm,server,mpi-rma] [--quick] [--output-dir DIR]
//
// See docs/benchmarks.md.
#include <mpi.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/host.hpp"
#include "common/overlap.hpp"
#include "common/pattern.hpp"
#include "suite/suite.hpp"

namespace rma = armada::rma;
namespace bs = armada::bench::suite;
namespace bench = armada::bench;

namespace {

constexpr const char* kProgram = "armada-bench";

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  return static_cast<bool>(f);
}

/// The report's conclusion: the verdict, then the headline table it sums up.
std::string summary(const bs::Report& report) { return bs::verdict(report) + bs::headline_table(report); }

/// Writes the gnuplot script next to the data and runs it; returns an error text or "".
std::string draw(const bs::Report& report, const std::string& dir, const std::string& name,
                 std::vector<std::string>* pngs) {
  const auto plots = bs::standard_plots(report);
  bool has_headline = false;
  for (const auto& run : report.runs) has_headline = has_headline || run.status == "ok";
  if (plots.empty() && !has_headline) return "";
  std::string terminal;
  try {
    terminal = bs::gnuplot_png_terminal();
  } catch (const std::exception& e) {
    return e.what();
  }
  // The headline figure first in the list: the one picture to look at (NAME-headline.png).
  const std::string headline_png = dir + "/" + name + "-headline.png";
  const std::string headline = bs::headline_gnuplot(report, terminal, headline_png);
  const std::string script = dir + "/" + name + ".gp";
  if (!write_file(script, bs::gnuplot_script(report, plots, terminal, dir) + headline))
    return "cannot write " + script + ": " + std::strerror(errno);
  const std::string command = "gnuplot '" + script + "'";
  const int rc = std::system(command.c_str());
  if (rc != 0) return "`" + command + "` failed (status " + std::to_string(rc) + ")";
  std::vector<std::string> wanted;
  if (!headline.empty()) wanted.push_back(headline_png);
  for (const auto& p : plots) wanted.push_back(dir + "/" + p.file);
  for (const auto& png : wanted) {
    if (!std::filesystem::exists(png) || std::filesystem::file_size(png) == 0)
      return "gnuplot ran but did not write " + png;
    pngs->push_back(png);
  }
  return "";
}

/// The environment of a transport pass.
void set_environment(const std::string& transport, int vnode_size) {
  if (transport == "shm") {
    setenv("ARMADA_NODE_SIZE", "0", 1);
    setenv("ARMADA_TRANSPORT", "server", 1);
  } else {
    setenv("ARMADA_NODE_SIZE", std::to_string(vnode_size).c_str(), 1);
    setenv("ARMADA_TRANSPORT", transport.c_str(), 1);
  }
}

/// Sets environment variable `name` to `value`, or unsets it when `value` is empty.
void set_or_unset(const char* name, const std::string& value) {
  if (value.empty())
    unsetenv(name);
  else
    setenv(name, value.c_str(), 1);
}

/// rma::transport_choice() of a job with ARMADA_TRANSPORT = `transport` and ARMADA_NODE_SIZE =
/// `node_size` ("": unset, the defaults): one rma::init ... rma::finalize, nothing measured.
/// Collective; `nodes` gets the job's node count.
std::string probe_choice(const std::string& transport, const std::string& node_size, int* nodes) {
  set_or_unset("ARMADA_TRANSPORT", transport);
  set_or_unset("ARMADA_NODE_SIZE", node_size);
  try {
    rma::init(MPI_COMM_WORLD);
  } catch (const std::exception& e) {  // every rank reads the same environment: all throw
    return std::string("unknown (rma::init refused this launch's settings: ") + e.what() + ")";
  }
  std::string choice = rma::transport_choice();
  *nodes = rma::node_count();
  rma::finalize();
  return choice;
}

/// The verdict's first lines: the transport a job launched like this one uses (this launch's own
/// ARMADA_TRANSPORT and ARMADA_NODE_SIZE, before the passes set theirs) and, when that job has
/// one node, the one it would use between nodes (virtual nodes of --vnode-size ranks).
void probe_choices(bs::Report& report, const bs::Options& o) {
  const std::string transport = bench::env_or("ARMADA_TRANSPORT", ""), node_size = bench::env_or("ARMADA_NODE_SIZE", "");
  int nodes = 0;
  report.job_choice = probe_choice(transport, node_size, &nodes);
  if (nodes <= 1 && o.vnode_size > 0)
    report.between_nodes_choice = probe_choice(transport, std::to_string(o.vnode_size), &nodes);
}

/// The region R of the pass: at least 16 MiB and 4 times the largest size, in MiB.
std::size_t region_bytes(const bs::Options& o) {
  std::size_t largest = 0;
  for (std::size_t s : o.sizes) largest = std::max(largest, s);
  std::size_t r = std::max<std::size_t>(16 * bs::MiB, 4 * largest);
  return (r + bs::MiB - 1) / bs::MiB * bs::MiB;
}

void run_pass(bs::Pass& p) {
  const bs::Options& o = *p.opt;
  const bool root = p.me == 0;
  MPI_Comm_dup(rma::world_comm(), &p.comm);
  p.layout.region = region_bytes(o);
  p.max_bytes = 8;
  for (std::size_t s : o.sizes) p.max_bytes = std::max(p.max_bytes, s);
  const std::size_t mine = p.me == 1 ? p.layout.target_bytes() : bs::Layout::kSlotBytes;
  p.bases = rma::allocate(mine);
  p.seg = static_cast<std::byte*>(p.bases[1]);
  p.mutexes = rma::MutexSet::create(p.me == 1 ? 1 : 0);
  p.win.create(p.comm, mine, true);
  p.lock_win.create(p.comm, p.me == 1 ? 64 : 0, false);
  const bool cold = std::find(o.families.begin(), o.families.end(), "cold") != o.families.end();
  if (cold) bs::open_peer_window(p);
  const std::size_t R = p.layout.region;
  if (root) {
    std::memset(p.bases[0], 0, bs::Layout::kSlotBytes);  // the notify ping-pong's echoes and flag
    for (std::byte** b : {&p.src, &p.dst, &p.mdst, &p.scratch}) {
      *b = static_cast<std::byte*>(rma::allocate_local(R));
      std::memset(*b, 0, R);  // map every page before anything is timed
    }
    p.acc_src = static_cast<double*>(rma::allocate_local(R));
    for (std::size_t i = 0; i < R / 8; ++i) p.acc_src[i] = bs::acc_value(i);
    for (std::byte** b : {&p.recv, &p.link_recv}) {
      *b = static_cast<std::byte*>(rma::allocate_local(R));
      std::memset(*b, 0, R);
    }
  }
  if (p.me == 1) {
    std::memset(p.seg, 0, p.layout.target_bytes());
    bench::fill_pattern(p.seg + p.layout.b(), R, bs::kGetSeed);
    if (p.win.ok()) {
      bench::fill_pattern(p.win.local() + p.layout.b(), R, bs::kGetSeed);
      p.win.sync();
    }
    // Ping-pong and stream buffers: rotated over R like every buffer, or one per message of a round.
    const std::size_t echo_bytes = std::max(R, static_cast<std::size_t>(bs::kStreamWindow) * ((p.max_bytes + 4095) / 4096 * 4096));
    for (std::byte** b : {&p.echo, &p.link_echo}) {
      *b = static_cast<std::byte*>(rma::allocate_local(echo_bytes));
      std::memset(*b, 0, echo_bytes);
    }
  }
  p.link.open(p.comm, 0, 1);
  rma::barrier();
  std::string pinning = "not pinned";
  if (o.pin && p.me <= 1) pinning = bench::pin_to_cpu_index(p.me);

  if (root) {
    p.table->meta({bench::field("transport", p.transport), bench::field("route_to_rank_1", std::string(rma::transport_name(1))),
                   bench::field("node_size", static_cast<long long>(rma::config().node_size)),
                   bench::field("nodes", static_cast<long long>(rma::node_count())),
                   bench::field("ranks", static_cast<long long>(p.nranks)), bench::field("region_bytes", static_cast<long long>(R)),
                   bench::field("rotate", std::string(o.rotate ? "yes" : "no")), bench::field("pinning_rank0", pinning),
                   bench::field("reps", static_cast<long long>(o.reps)), bench::field("rep_ms", o.rep_seconds * 1000),
                   bench::field("mpi_window", std::string(p.win.ok() ? "yes" : "no: " + p.win.error())),
                   bench::field("mpi_route", std::string(p.same_host ? "shared memory" : "network")),
                   bench::field("tcp_socket", p.link.ok() ? p.link.peer_address() : "no: " + p.link.error()),
                   bench::field("OMPI_MCA_osc", bench::env_or("OMPI_MCA_osc", "(default)")),
                   bench::field("OMPI_MCA_btl", bench::env_or("OMPI_MCA_btl", "(default)")),
                   bench::field("server_poll", std::string(rma::config().flag("ARMADA_SERVER_POLL") ? "yes" : "no")),
                   bench::field("server_sleep_max_us", static_cast<long long>(rma::config().integer("ARMADA_SERVER_SLEEP_MAX_US"))),
                   bench::field("server_cluster", static_cast<long long>(rma::config().integer("ARMADA_SERVER_CLUSTER"))),
                   bench::field("server_buffers", static_cast<long long>(rma::config().integer("ARMADA_SERVER_BUFFERS"))),
                   bench::field("server_inline", static_cast<long long>(rma::config().integer("ARMADA_SERVER_INLINE"))),
                   bench::field("server_chunk", static_cast<long long>(rma::config().integer("ARMADA_SERVER_CHUNK")))});
    for (const std::string& f : o.families) bs::family(f).run(p);
    p.progress->done();
    for (int r = 1; r < p.nranks; ++r) bs::send_command(p, r, {bs::Cmd::Quit});
  } else {
    bs::serve(p);
  }
  MPI_Request request;
  MPI_Ibarrier(p.comm, &request);
  bench::wait_sleeping(request);

  bench::restore_launch_affinity();
  p.link.close();
  for (std::byte* b : {p.src, p.dst, p.mdst, p.recv, p.link_recv, p.echo, p.link_echo, p.scratch})
    if (b) rma::free_local(b);
  if (cold) bs::close_peer_window(p);
  if (p.acc_src) rma::free_local(p.acc_src);
  p.win.free();
  p.lock_win.free();
  p.mutexes.destroy();
  rma::free(p.bases[static_cast<std::size_t>(p.me)]);
  MPI_Comm_free(&p.comm);
}

/// Whether world ranks 0 and 1 share a host (MPI then reaches rank 1 over shared memory).
/// Collective over the world.
bool ranks_01_share_a_host() {
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int me = 0, leader = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Allreduce(&me, &leader, 1, MPI_INT, MPI_MIN, host);  // the lowest world rank on my host
  MPI_Comm_free(&host);
  int leaders[2] = {leader, leader};
  MPI_Bcast(&leaders[0], 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&leaders[1], 1, MPI_INT, 1, MPI_COMM_WORLD);
  return leaders[0] == leaders[1];
}

/// Progress steps of one transport pass.
std::size_t pass_steps(const bs::Options& o, int nranks) {
  std::size_t n = 0;
  for (const std::string& f : o.families) n += bs::family(f).steps(o, nranks);
  return n;
}

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

int plot_only(const bs::Options& o) {
  std::ifstream f(o.plot_from, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "%s: --plot: cannot read '%s': %s\n", kProgram, o.plot_from.c_str(), std::strerror(errno));
    return 2;
  }
  std::stringstream text;
  text << f.rdbuf();
  bs::Report report;
  try {
    report = bs::from_json(text.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: --plot: '%s': %s\n", kProgram, o.plot_from.c_str(), e.what());
    return 2;
  }
  std::error_code ec;
  std::filesystem::create_directories(o.output_dir, ec);
  if (ec) {
    std::fprintf(stderr, "%s: --output-dir '%s': %s\n", kProgram, o.output_dir.c_str(), ec.message().c_str());
    return 2;
  }
  std::vector<std::string> pngs;
  const std::string error = draw(report, o.output_dir, o.name, &pngs);
  if (!error.empty()) {
    std::fprintf(stderr, "%s: plotting failed: %s\n", kProgram, error.c_str());
    return 4;
  }
  for (const auto& png : pngs) std::printf("plot: %s\n", png.c_str());
  std::printf("%s", summary(report).c_str());
  return 0;
}

/// What every transport pass of a launch shares.
struct Launch {
  const bs::Options& o;
  bs::Report& report;
  bench::ResultWriter& table;
  bench::Progress& progress;
  int me, nranks;
  bool same_host;    // ranks 0 and 1 share a host
  std::size_t steps; // progress steps of one pass
};

/// One transport pass: rma::init with its environment, the families, rma::finalize. A transport
/// rma::init refuses, or that does not reach rank 1 the way it should, is recorded with why.
/// Returns this rank's failed data checks.
long run_transport(Launch& l, const std::string& transport) {
  set_environment(transport, l.o.vnode_size);
  bench::restore_launch_affinity();
  bs::RunConfig cfg;
  cfg.transport = transport;
  cfg.ranks = l.nranks;
  cfg.mpi = bench::mpi_library_version();
  cfg.host = bench::host_name();
  cfg.cpu = bench::cpu_model();
  cfg.date = bench::utc_timestamp();
  cfg.node_size = transport == "shm" ? 0 : l.o.vnode_size;
  cfg.mpi_route = l.same_host ? "shared memory" : "network";
  cfg.loadavg_start = bench::load_average();
  const std::size_t steps_end = l.progress.step() + l.steps;
  std::string refused;
  try {
    rma::init(MPI_COMM_WORLD);
  } catch (const rma::InvalidArgument& e) {
    // Every rank reads the same environment, so every rank refuses. Another bad setting (say
    // ARMADA_SERVER_CHUNK=abc) is the user's error, not a missing transport: fatal.
    if (e.argument() != "ARMADA_TRANSPORT") throw;
    refused = e.what();
  }
  int mine = refused.empty(), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (mine) throw std::runtime_error("rma::init accepted transport '" + transport + "' on some ranks only");
    cfg.status = "not available in this build: " + refused;
    l.report.runs.push_back(cfg);
    if (l.me == 0)
      std::printf("\n== transport %s: NOT AVAILABLE IN THIS BUILD (rma::init refused it: %s)\n", transport.c_str(), refused.c_str());
    l.progress.skip(l.steps);
    return 0;
  }
  cfg.route = rma::transport_name(1);
  cfg.nodes = rma::node_count();
  cfg.node_size = rma::config().node_size;
  // As rank 0 sees it (rank 1 reaches itself through shared memory): decided there, for all.
  int route_ok = transport == "shm" ? cfg.route == "shm" : cfg.route != "shm" && cfg.route != "none";
  MPI_Bcast(&route_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!route_ok) {
    cfg.status = "skipped: rank 1 is reached through '" + cfg.route + "'" +
                 (transport == "shm" ? " (ranks 0 and 1 are on different nodes; the shm pass needs them on one node)"
                                     : " (ranks 0 and 1 share a node: use --vnode-size 1, or place them on two hosts)");
    l.report.runs.push_back(cfg);
    if (l.me == 0) std::printf("\n== transport %s: %s\n", transport.c_str(), cfg.status.c_str());
    l.progress.skip(l.steps);
    rma::finalize();
    return 0;
  }
  const int run_index = static_cast<int>(l.report.runs.size());
  l.report.runs.push_back(cfg);
  if (l.me == 0)
    std::printf("\n######## transport %s (ARMADA_NODE_SIZE=%d, rank 1 through '%s') ########\n", transport.c_str(),
                cfg.node_size, cfg.route.c_str());
  bs::Pass p;
  p.opt = &l.o;
  p.report = &l.report;
  p.run = run_index;
  p.table = &l.table;
  p.progress = &l.progress;
  p.transport = transport;
  p.me = l.me;
  p.nranks = l.nranks;
  p.busy_ns = l.me == 0 ? bench::calibrate_busy() : 0;  // per pass: the clock may have moved since the last
  p.same_host = l.same_host;
  run_pass(p);
  if (l.progress.step() < steps_end) l.progress.skip(steps_end - l.progress.step());
  l.report.runs[static_cast<std::size_t>(run_index)].loadavg_end = bench::load_average();
  rma::finalize();
  return p.failures;
}

/// Root: writes the JSON and CSV, prints the summary, draws the plots and ends with the headline
/// table. Returns the exit status.
int write_results(const bs::Options& o, const bs::Report& report, long all_failures, double seconds) {
  const std::string stem = o.output_dir + "/" + o.name;
  bool written = write_file(stem + ".json", bs::to_json(report));
  written = write_file(stem + ".csv", bs::to_csv(report)) && written;
  std::printf("\n%zu results in %.1f s (load average now %.2f); verification: %s\n", report.records.size(),
              seconds, bench::load_average(),
              all_failures ? (std::to_string(all_failures) + " FAILURES").c_str() : "all data correct");
  for (const auto& run : report.runs) std::printf("transport %-8s %s\n", run.transport.c_str(), run.status.c_str());
  std::printf("results: %s.json, %s.csv%s\n", stem.c_str(), stem.c_str(), written ? "" : " (WRITE FAILED)");
  int status = all_failures ? 1 : written ? 0 : 1;
  if (o.plot) {
    std::vector<std::string> pngs;
    const std::string error = draw(report, o.output_dir, o.name, &pngs);
    if (!error.empty()) {
      std::fprintf(stderr, "%s: plotting failed: %s\n", kProgram, error.c_str());
      if (status == 0) status = 4;
    }
    for (const auto& png : pngs) std::printf("plot: %s\n", png.c_str());
  }
  const std::string text = summary(report);
  if (!write_file(stem + "-report.txt", text)) {
    std::fprintf(stderr, "%s: cannot write %s-report.txt: %s\n", kProgram, stem.c_str(), std::strerror(errno));
    if (status == 0) status = 1;
  }
  std::printf("%s", text.c_str());
  return status;
}

int run(int argc, char** argv) {
  int me = 0, nranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const bool root = me == 0;
  bs::Options o;
  try {
    o = bs::parse_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    if (root) std::fprintf(stderr, "%s: %s\n%s", kProgram, e.what(), bs::usage(kProgram).c_str());
    return 2;
  }
  if (o.help) {
    if (root) std::printf("%s", bs::usage(kProgram).c_str());
    return 0;
  }
  if (nranks < 2) {
    if (root) std::fprintf(stderr, "%s: needs at least 2 ranks (rank 0 measures, rank 1 is the target): mpiexec -n 2 %s\n", kProgram, argv[0]);
    return 2;
  }
  int ok = 1;
  if (root) {
    std::error_code ec;
    std::filesystem::create_directories(o.output_dir, ec);
    if (ec) {
      std::fprintf(stderr, "%s: --output-dir '%s': %s\n", kProgram, o.output_dir.c_str(), ec.message().c_str());
      ok = 0;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) return 2;

  bs::Report report;
  report.command = command_line(argc, argv);
  report.started = bench::utc_timestamp();
  report.quick = o.quick;
  probe_choices(report, o);
  bench::ResultWriter table(root, "");
  bench::Progress progress(root);
  const bool same_host = ranks_01_share_a_host();
  const std::size_t steps = pass_steps(o, nranks);
  long failures = 0;
  const auto t0 = bench::Clock::now();
  progress.begin(steps * o.transports.size());

  Launch launch{o, report, table, progress, me, nranks, same_host, steps};
  for (const std::string& transport : o.transports) failures += run_transport(launch, transport);

  long all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (!root) return all_failures ? 1 : 0;

  return write_results(o, report, all_failures, bench::seconds(t0, bench::Clock::now()));
}

}  // namespace

int main(int argc, char** argv) {
  // Re-plotting a results file needs no MPI at all.
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--plot") == 0) {
      try {
        return plot_only(bs::parse_options(argc, argv));
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s: %s\n%s", kProgram, e.what(), bs::usage(kProgram).c_str());
        return 2;
      }
    }
  int provided = 0;
  rma::prepare_mpi_environment();  // the mpi-rma pass's one-sided components (before MPI_Init)
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int status = 3;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    std::fprintf(stderr, "%s: rank %d: %s\n", kProgram, me, e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  // Every rank leaves with the same status where it is collective (usage errors, failures).
  MPI_Finalize();
  return status;
}
