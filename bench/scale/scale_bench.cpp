// armada-scale: what one rank costs as the job grows (issue 53, docs/scaling.md). One launch
// measures one configuration (ARMADA_TRANSPORT, ARMADA_NODE_SIZE from the environment, as every
// Armada program reads them) and rank 0 prints JSON lines, one per metric, each with the
// minimum, mean and maximum over the ranks:
//   memory: resident set (VmRSS) and heap in use (mallinfo2) after MPI_Init (the baseline), after
//           rma::init, after N arrays, after M groups; the later ones also as growth over the
//           previous step, which is what Armada added;
//   time:   rma::init (wall and the main thread's CPU time); fence_all with nothing written, and after a put to each of k peers
//           (puts and fence timed together, and the fence alone);
//           rma::barrier; an agreement (rma::agree over the world).
// scripts/bench-scale.sh runs it over ranks, node sizes and transports, and
// scripts/scale_model.py fits the model and draws the plot. With --heap-sites FILE and the
// libarmada-heap-sites shim preloaded (heap_sites.c), rank 0 also writes who allocated the heap
// that init and the arrays kept (scripts/heap_sites.py compares two job sizes site by site).
// Times on an oversubscribed machine measure the machine as much as Armada: the memory figures
// are the robust ones.
#include <dlfcn.h>
#include <malloc.h>
#include <mpi.h>

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/programs/json.hpp"
#include "armada/programs/options.hpp"
#include "armada/rma/rma.hpp"

namespace {

namespace rma = armada::rma;
namespace arrays = armada::arrays;
namespace programs = armada::programs;

struct Options {
  int arrays = 100;
  int groups = 1000;
  int reps = 20;
  int peers = 4;  // k: the peers written before the dirty fence_all
  bool mpi_warmup = false;
  std::string output;
  std::string heap_sites;  // FILE: rank 0 writes the live heap by allocation site
};

// The heap-sites shim's entry points (heap_sites.c), when it is preloaded and --heap-sites asks
// for it; otherwise every call is a no-op. Rank 0 only: the sites are the same on every rank.
class HeapSites {
 public:
  HeapSites(const std::string& path, int rank) : path_(rank == 0 ? path : std::string()) {
    if (path_.empty()) return;
    begin_ = reinterpret_cast<int (*)(const char*)>(dlsym(RTLD_DEFAULT, "armada_heap_sites_begin"));
    write_ = reinterpret_cast<int (*)(const char*, int)>(dlsym(RTLD_DEFAULT, "armada_heap_sites_write"));
  }
  /// Whether rank 0 was asked for --heap-sites and the shim is missing (then the run stops).
  bool missing() const { return !path_.empty() && (!begin_ || !write_); }
  void begin(const char* phase) const {
    if (begin_) begin_(phase);
  }
  void write(int ranks) const {
    if (write_ && write_(path_.c_str(), ranks) != 0)
      std::fprintf(stderr, "armada-scale: --heap-sites: cannot write %s\n", path_.c_str());
  }

 private:
  std::string path_;
  int (*begin_)(const char*) = nullptr;
  int (*write_)(const char*, int) = nullptr;
};

struct Memory {
  double rss_bytes;
  // The resident set without file-backed pages (RssAnon + RssShmem): a library's code pages are
  // shared by every rank of the host and bounded by the library's size, yet which of them are
  // resident varies from run to run (260 kB of libarmada_arrays at 16 ranks, 416 kB at 64, on
  // rank 0: docs/scaling.md, sixth round), which a fit against P reads as a per-rank cost.
  double rss_nofile_bytes;
  double heap_bytes;
};

Memory memory_now() {
  long rss = 0, anon = 0, shmem = 0, kb = 0;
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) rss = kb;
      else if (std::sscanf(line, "RssAnon: %ld kB", &kb) == 1) anon = kb;
      else if (std::sscanf(line, "RssShmem: %ld kB", &kb) == 1) shmem = kb;
    }
    std::fclose(f);
  }
  const struct mallinfo2 m = mallinfo2();
  return {static_cast<double>(rss) * 1024.0, static_cast<double>(anon + shmem) * 1024.0,
          static_cast<double>(m.uordblks + m.hblkhd)};
}

struct Spread {
  double min, mean, max;
};

// Collective over the world.
Spread over_ranks(double v) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Spread s{v, v, v};
  MPI_Allreduce(MPI_IN_PLACE, &s.min, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &s.max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &s.mean, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  s.mean /= size;
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Prints one record (rank 0) for `metric`; `value` is this rank's figure. Collective.
class Records {
 public:
  Records(programs::json::JsonLine context, std::FILE* out, bool print) : context_(std::move(context)), out_(out), print_(print) {}
  void add(const std::string& metric, const char* unit, double value) {
    const Spread s = over_ranks(value);
    if (!print_) return;
    programs::json::JsonLine line = context_;
    line.add("metric", metric).add("unit", unit).add("min", s.min, 6).add("mean", s.mean, 6).add("max", s.max, 6);
    std::fprintf(out_, "%s\n", line.str().c_str());
    std::fflush(out_);
  }

 private:
  programs::json::JsonLine context_;
  std::FILE* out_;
  bool print_;
};

void add_memory(Records& r, const std::string& step, const Memory& now, const Memory& before) {
  r.add("rss_" + step, "B", now.rss_bytes);
  r.add("heap_" + step, "B", now.heap_bytes);
  r.add("rss_growth_" + step, "B", now.rss_bytes - before.rss_bytes);
  r.add("rss_nofile_growth_" + step, "B", now.rss_nofile_bytes - before.rss_nofile_bytes);
  r.add("heap_growth_" + step, "B", now.heap_bytes - before.heap_bytes);
}

template <class F>
double median_seconds(int reps, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    f();
    t.push_back(MPI_Wtime() - t0);
  }
  return median(std::move(t));
}

// fence_all with nothing outstanding, and after one 8-byte put to each of `k` peers (the next
// ranks, cyclically), puts and fence timed together and the fence alone: whether a fence's cost
// follows the peers written or P.
void measure_fences(Records& r, const Options& o, int rank, int size) {
  std::vector<void*> bases = rma::allocate(64);
  const int k = std::min(o.peers, size - 1);
  const long value = rank;
  const auto put_to_k = [&] {
    for (int j = 1; j <= k; ++j) {
      const int t = (rank + j) % size;
      rma::put(&value, bases[static_cast<std::size_t>(t)], sizeof value, t);
    }
  };
  r.add("fence_all_clean_s", "s", median_seconds(o.reps, [] { rma::fence_all(); }));
  r.add("fence_all_after_k_puts_s", "s", median_seconds(o.reps, [&] {
    put_to_k();
    rma::fence_all();
  }));
  std::vector<double> fence_only;
  for (int i = 0; i < o.reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    put_to_k();
    const double t0 = MPI_Wtime();
    rma::fence_all();
    fence_only.push_back(MPI_Wtime() - t0);
  }
  r.add("fence_all_only_after_k_puts_s", "s", median(std::move(fence_only)));
  r.add("barrier_s", "s", median_seconds(o.reps, [] { rma::barrier(); }));
  r.add("agree_s", "s", median_seconds(o.reps, [] { rma::agree("armada-scale", [] {}); }));
  rma::barrier();
  rma::free(bases[static_cast<std::size_t>(rank)]);
}

// `count` groups of two neighbouring ranks (0-1, 2-3, ...; disjoint lists, as Global Arrays'
// per-node groups are): each creation is collective over the world, each rank joins one.
std::vector<rma::Group> make_groups(int count, int rank, int size) {
  std::vector<rma::Group> groups;
  const int first = rank / 2 * 2;
  std::vector<int> pair{first};
  if (first + 1 < size) pair.push_back(first + 1);
  for (int i = 0; i < count; ++i) groups.push_back(rma::Group::create(rma::Group::world(), pair));
  return groups;
}

// Every rank contacts every other once: what the MPI library sets up per peer on first contact.
void mpi_warmup(int size) {
  std::vector<char> one(64, 'x'), all(static_cast<std::size_t>(size) * 64);
  MPI_Allgather(one.data(), 64, MPI_CHAR, all.data(), 64, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<long> out(static_cast<std::size_t>(size)), in(static_cast<std::size_t>(size));
  MPI_Alltoall(out.data(), 1, MPI_LONG, in.data(), 1, MPI_LONG, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
}

std::optional<int> parse(int argc, char** argv, Options& o, int rank) {
  const programs::CommandLine cl(
      {.name = "armada-scale", .launch = "mpiexec -n <ranks> ",
       .description = "Per-rank memory, init time and synchronization costs at this job's size, as JSON lines\n"
                      "(ARMADA_TRANSPORT and ARMADA_NODE_SIZE choose the configuration).\n"},
      {{.name = "--arrays", .kind = programs::Kind::integer, .help = "arrays to create", .default_text = "100", .min = 0,
        .max = 100000, .int_target = &o.arrays},
       {.name = "--groups", .kind = programs::Kind::integer, .help = "groups to create", .default_text = "1000", .min = 0,
        .max = 100000, .int_target = &o.groups},
       {.name = "--reps", .kind = programs::Kind::integer, .help = "repetitions of each timed call (median)",
        .default_text = "20", .min = 1, .max = 100000, .int_target = &o.reps},
       {.name = "--peers", .kind = programs::Kind::integer, .help = "peers written before the measured fence_all",
        .default_text = "4", .min = 0, .max = 1 << 20, .int_target = &o.peers},
       {.name = "--mpi-warmup", .kind = programs::Kind::flag,
        .help = "before the baseline, an allgather and an all-to-all over the world, so that the MPI library's\n"
                "per-peer state made at first contact is in the baseline, not in rma::init's growth",
        .flag_target = &o.mpi_warmup},
       {.name = "--output", .kind = programs::Kind::text, .value_name = "FILE",
        .help = "append the JSON lines to FILE (default: stdout)", .nonempty = true, .text_target = &o.output},
       {.name = "--heap-sites", .kind = programs::Kind::text, .value_name = "FILE",
        .help = "rank 0 writes the heap that init and the arrays kept, by allocation site, to FILE (needs\n"
                "LD_PRELOAD=<build>/bench/libarmada-heap-sites.so; scripts/heap_sites.py reads two such files;\n"
                "the shim slows every allocation and free: such a run's times are not representative)",
        .nonempty = true, .text_target = &o.heap_sites}});
  return cl.handle(argc, argv, rank == 0);
}

programs::json::JsonLine context_of(const Options& o, int size, double load1) {
  programs::json::JsonLine c;
  c.add("program", "armada-scale")
      .add("transport", rma::config().text("ARMADA_TRANSPORT"))
      .add("node_size", static_cast<long>(rma::config().integer("ARMADA_NODE_SIZE")))
      .add("ranks", size)
      .add("nodes", rma::node_count())
      .add("arrays", o.arrays)
      .add("groups", o.groups)
      .add("peers_written", std::min(o.peers, size - 1))
      .add("mpi_warmup", o.mpi_warmup)
      .add("load1", load1, 3);
  return c;
}

// CPU time of the calling thread: what init costs this rank in work, unlike the wall time, which
// on an oversubscribed machine is mostly waiting for the core.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

int run(const Options& o, int rank, int size, const Memory& after_mpi) {
  const HeapSites sites(o.heap_sites, rank);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime(), c0 = thread_cpu_s();
  sites.begin("init");
  rma::init(MPI_COMM_WORLD);
  const double init_s = MPI_Wtime() - t0, init_cpu_s = thread_cpu_s() - c0;
  const Memory after_init = memory_now();
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) load[0] = -1;
  std::FILE* out = rank == 0 && !o.output.empty() ? std::fopen(o.output.c_str(), "a") : stdout;
  if (!out) {
    std::fprintf(stderr, "armada-scale: cannot open %s\n", o.output.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  Records r(context_of(o, size, load[0]), out, rank == 0);
  r.add("init_s", "s", init_s);
  r.add("init_cpu_s", "s", init_cpu_s);
  r.add("rss_mpi", "B", after_mpi.rss_bytes);
  add_memory(r, "init", after_init, after_mpi);

  std::vector<arrays::Array> made;
  sites.begin("arrays");
  for (int i = 0; i < o.arrays; ++i)
    made.push_back(arrays::Array::create(arrays::ElemType::Double, {static_cast<arrays::Index>(size) * 16}));
  const Memory after_arrays = memory_now();
  sites.write(size);
  add_memory(r, "arrays", after_arrays, after_init);

  std::vector<rma::Group> groups = make_groups(o.groups, rank, size);
  add_memory(r, "groups", memory_now(), after_arrays);

  measure_fences(r, o, rank, size);
  for (auto& a : made) a.destroy();
  groups.clear();
  if (out != stdout) std::fclose(out);
  rma::finalize();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  rma::prepare_mpi_environment();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  if (const auto exit_code = parse(argc, argv, o, rank)) {
    MPI_Finalize();
    return *exit_code;
  }
  if (HeapSites(o.heap_sites, rank).missing()) {
    std::fprintf(stderr,
                 "armada-scale: --heap-sites %s: the heap-sites shim is not loaded (run with "
                 "LD_PRELOAD=<build>/bench/libarmada-heap-sites.so)\n",
                 o.heap_sites.c_str());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (o.mpi_warmup) mpi_warmup(size);
  const Memory after_mpi = memory_now();
  int rc = 0;
  try {
    rc = run(o, rank, size, after_mpi);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "armada-scale: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return rc;
}
