// armada-bench-io: save and load bandwidth of a distributed 2-D double array through
// armada::arrays' parallel HDF5 I/O, against, in the same launch, MPI-IO writing and reading the
// same bytes collectively (each rank's block as a subarray view of one file, write_all/read_all,
// then MPI_File_sync), and against one rank writing the same bytes to a plain file (write +
// fsync). Repetitions interleave them, so all see the same machine state; figures are
// medians in GB/s of the array's bytes.
//
// MPI-IO writes twice: "replace" does what arrays::save does to keep a file whole (a new file
// beside the old one, synced, renamed over it), "overwrite" rewrites the same file in place. On
// a VM the two differ by up to 5x: a new file needs page-cache pages the old one still holds,
// and fresh guest pages can cost a host fault each; overwriting reuses the file's own pages.
// save meets each on its own terms: the default save against "replace", save(SaveMode::in_place)
// against "overwrite". Every load and MPI-IO read is verified element by element; a mismatch
// makes the exit status 1.
//
//   mpiexec -n 4 armada-bench-io [--dir DIR] [--quick] [--reps N] [--output results.json]
//
// --dir: where the files go (default "."; the parallel file system on a cluster). The array is
// 1 GiB (--quick: 32 MiB). The files are removed at the end.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/arrays/io.hpp"
#include "armada/rma/rma.hpp"
#include "common/options.hpp"
#include "common/results.hpp"
#include "common/stats.hpp"
#include "common/timing.hpp"

namespace arrays = armada::arrays;
namespace rma = armada::rma;
namespace bench = armada::bench;
using arrays::Coord;

namespace {

constexpr long kCols = 4096;
int g_rank = 0, g_size = 1, g_failures = 0;

double value_at(long row, long col) { return static_cast<double>((row * kCols + col) % 1000003) + 0.25; }

// Seconds of `op` (collective), the slowest rank's.
template <class Op>
double timed(Op&& op) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = bench::Clock::now();
  op();
  double s = bench::seconds(t0, bench::Clock::now());
  MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return s;
}

void check_block(const double* data, const arrays::Patch& block, const std::string& what) {
  long bad = 0;
  const long cols = block.hi[1] - block.lo[1];
  for (long r = block.lo[0]; r < block.hi[0]; ++r)
    for (long c = block.lo[1]; c < block.hi[1]; ++c)
      bad += data[(r - block.lo[0]) * cols + (c - block.lo[1])] != value_at(r, c);
  if (bad) {
    ++g_failures;
    std::fprintf(stderr, "[rank %d] verification failed: %s (%ld wrong elements)\n", g_rank, what.c_str(), bad);
  }
}

// MPI-IO on the same layout: the file is the whole row-major array; each rank's view is its block.
struct MpiIoFile {
  MPI_Datatype view = MPI_DATATYPE_NULL;
  long elements = 0;
  explicit MpiIoFile(const arrays::Patch& block, long rows) {
    const int sizes[2] = {static_cast<int>(rows), static_cast<int>(kCols)};
    int sub[2] = {static_cast<int>(block.hi[0] - block.lo[0]), static_cast<int>(block.hi[1] - block.lo[1])};
    int starts[2] = {static_cast<int>(block.lo[0]), static_cast<int>(block.lo[1])};
    if (block.empty()) sub[0] = sub[1] = starts[0] = starts[1] = 0;
    elements = static_cast<long>(sub[0]) * sub[1];
    if (elements == 0) sub[0] = sub[1] = 1;  // a 1x1 subarray, of which nothing is written
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &view);
    MPI_Type_commit(&view);
  }
  ~MpiIoFile() { MPI_Type_free(&view); }
  // Writes `path` as arrays::save does: a new file "<path>.tmp", synced, then renamed over `path`.
  void replace(const std::string& path, double* data) const {
    const std::string temporary = path + ".tmp";
    transfer(temporary, data, true);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) {
      ++g_failures;
      std::fprintf(stderr, "[rank 0] cannot rename %s to %s\n", temporary.c_str(), path.c_str());
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  void transfer(const std::string& path, double* data, bool write) const {
    MPI_File f;
    MPI_File_open(MPI_COMM_WORLD, path.c_str(), write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
                  MPI_INFO_NULL, &f);
    MPI_File_set_view(f, 0, MPI_DOUBLE, view, "native", MPI_INFO_NULL);
    const int count = static_cast<int>(elements);
    if (write) {
      MPI_File_write_all(f, data, count, MPI_DOUBLE, MPI_STATUS_IGNORE);
      MPI_File_sync(f);
    } else {
      MPI_File_read_all(f, data, count, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&f);
  }
};

// One rank writes `bytes` bytes from `data` to a plain file and syncs it.
void posix_write(const std::string& path, const char* data, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::size_t done = 0;
  while (fd >= 0 && done < bytes) {
    const ssize_t n = ::write(fd, data + done, bytes - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (fd < 0 || done != bytes || ::fsync(fd) != 0) {
    ++g_failures;
    std::fprintf(stderr, "[rank %d] plain write of %s failed\n", g_rank, path.c_str());
  }
  if (fd >= 0) ::close(fd);
}

void report(bench::ResultWriter& out, const std::string& name, std::size_t bytes, const std::vector<double>& armada_s,
            const std::string& baseline, const std::vector<double>& baseline_s) {
  const auto rates = [&](const std::vector<double>& seconds) {
    std::vector<double> r;
    for (double s : seconds) r.push_back(static_cast<double>(bytes) / s * 1e-9);
    return r;
  };
  bench::Result r;
  r.bench = name;
  r.bytes = bytes;
  r.variant = "cold";
  r.unit = bench::Unit::GBps;
  r.armada = bench::summarize(rates(armada_s));
  r.baseline = baseline;
  r.baseline_stats = bench::summarize(rates(baseline_s));
  r.fields.push_back(bench::field("ranks", static_cast<long long>(g_size)));
  out.add(r);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  std::string dir = ".";
  bench::Options opt;
  if (const auto exit_code = bench::parse_command_line(
          argc, argv, "armada-bench-io", {"io"}, opt, g_rank == 0,
          {{.name = "--dir", .kind = armada::programs::Kind::text, .value_name = "DIR", .help = "where the files go",
            .default_text = ".", .nonempty = true, .text_target = &dir}})) {
    MPI_Finalize();
    return *exit_code;
  }
  rma::init(MPI_COMM_WORLD);
  if (!arrays::io_available()) {
    if (g_rank == 0) std::fprintf(stderr, "armada-bench-io: Armada was built without parallel HDF5\n");
    rma::finalize();
    MPI_Finalize();
    return 2;
  }
  {
    const long rows = (opt.quick ? (32L << 20) : (1L << 30)) / static_cast<long>(sizeof(double)) / kCols;
    const std::size_t bytes = static_cast<std::size_t>(rows * kCols) * sizeof(double);
    bench::ResultWriter out(g_rank == 0, opt.output);
    out.meta({bench::field("program", std::string("armada-bench-io")), bench::field("ranks", static_cast<long long>(g_size)),
              bench::field("array", std::to_string(rows) + "x" + std::to_string(kCols) + " double"),
              bench::field("dir", dir)});
    arrays::ArrayOptions o;
    o.name = "A";
    o.grid = {g_size, 1};  // row blocks: each rank's block is contiguous in memory and in the file
    auto A = arrays::GlobalArray<double>::create({rows, kCols}, o);
    const arrays::Patch block = A.owned();
    auto view = A.access();
    for (long r = block.lo[0]; r < block.hi[0]; ++r)
      for (long c = 0; c < kCols; ++c) view[{r, c}] = value_at(r, c);
    A.sync_group();
    const std::vector<double> mine(view.data, view.data + block.elements());
    std::vector<double> scratch(mine.size());
    std::vector<char> whole;
    if (g_rank == 0) whole.assign(bytes, 1);
    const MpiIoFile mpiio(block, rows);
    const std::string h5 = dir + "/armada-bench-io.h5", raw = dir + "/armada-bench-io.mpiio", plain = dir + "/armada-bench-io.posix";

    std::vector<double> save_s, mpi_replace_s, in_place_s, mpi_write_s, posix_s, load_s, mpi_read_s;
    for (int rep = 0; rep < opt.reps; ++rep) {
      const auto save = [&] { save_s.push_back(timed([&] { arrays::save(h5, {A}); })); };
      const auto replace = [&] { mpi_replace_s.push_back(timed([&] { mpiio.replace(raw, const_cast<double*>(mine.data())); })); };
      // Who goes first alternates: the second writer of a new file finds the pages the first
      // one freed (its old file's) and on a VM runs up to 4x faster.
      if (rep % 2 == 0) save(), replace(); else replace(), save();
      // Rewriting in place, both sides: save(SaveMode::in_place) of a file holding A's dataset,
      // and MPI-IO's write_all over its own file.
      const auto in_place = [&] { in_place_s.push_back(timed([&] { arrays::save(h5, {A}, arrays::SaveMode::in_place); })); };
      const auto overwrite = [&] { mpi_write_s.push_back(timed([&] { mpiio.transfer(raw, const_cast<double*>(mine.data()), true); })); };
      if (rep % 2 == 0) in_place(), overwrite(); else overwrite(), in_place();
      posix_s.push_back(timed([&] {
        if (g_rank == 0) posix_write(plain, whole.data(), bytes);
      }));
      std::fill(view.data, view.data + block.elements(), 0.0);
      load_s.push_back(timed([&] { arrays::load(h5, "A", A); }));
      check_block(view.data, block, "arrays::load");
      std::fill(scratch.begin(), scratch.end(), 0.0);
      mpi_read_s.push_back(timed([&] { mpiio.transfer(raw, scratch.data(), false); }));
      check_block(scratch.data(), block, "MPI-IO read_all");
    }
    out.section("save / load of a " + std::to_string(bytes >> 20) + " MiB array, GB/s of array bytes (MPI-IO: same bytes, same launch)");
    report(out, "save", bytes, save_s, "mpiio_write_all_replace", mpi_replace_s);
    report(out, "save_vs_overwrite", bytes, save_s, "mpiio_write_all_overwrite", mpi_write_s);
    report(out, "save_in_place_vs_overwrite", bytes, in_place_s, "mpiio_write_all_overwrite", mpi_write_s);
    report(out, "save_vs_one_rank", bytes, save_s, "posix_write_1rank", posix_s);
    report(out, "load", bytes, load_s, "mpiio_read_all", mpi_read_s);
    A.destroy();
    if (g_rank == 0)
      for (const auto& f : {h5, raw, plain}) ::unlink(f.c_str());
    int total = 0;
    MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0) std::printf("%s\n", total ? "VERIFICATION FAILED" : "all data checks passed");
    g_failures = total;
  }
  rma::finalize();
  MPI_Finalize();
  return g_failures ? 1 : 0;
}
