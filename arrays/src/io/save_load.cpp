// save, load, load_patch, list: collective HDF5 I/O of arrays over MPI-IO.
//
// Every collective step runs inside rma::agree, so a failure on any member (an HDF5 call, the
// file system, a bad argument) becomes an error on every member at the same step, and the
// handles opened so far are closed by all members alike while the errors unwind. What only
// needs one process (file checks, locks, reading a file's metadata, renaming) is done by group
// rank 0 for the group, before the collective open.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include "armada/arrays/io.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/runtime.hpp"
#include "internal.hpp"
#include "io/files.hpp"
#include "io/hdf5.hpp"
#include "io/io_internal.hpp"

namespace armada::arrays {

bool io_available() noexcept { return true; }

namespace io {
namespace {

// Attribute names: one table for the writer and the reader (docs/io.md lists them).
constexpr const char* kAttrVersion = "armada_version";
constexpr const char* kAttrFormat = "armada_format";
constexpr const char* kAttrType = "armada_element_type";
constexpr const char* kAttrDims = "armada_dims";
constexpr const char* kAttrGhosts = "armada_ghosts";
constexpr const char* kAttrGrid = "armada_grid";
constexpr const char* kAttrStarts = "armada_block_starts";
constexpr const char* kAttrGroupSize = "armada_group_size";
constexpr const char* kDatasetAttributes[] = {kAttrVersion, kAttrType,  kAttrDims,     kAttrGhosts,
                                              kAttrGrid,    kAttrStarts, kAttrGroupSize};
constexpr Index kFormat = 1;
constexpr std::size_t kRewriteRoom = 64 * 1024;  // free space a save in place asks for

// ---- broadcasting what rank 0 found --------------------------------------------------------------
void put_index(std::string& out, Index v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
void put_string(std::string& out, const std::string& s) {
  put_index(out, static_cast<Index>(s.size()));
  out += s;
}
void put_coord(std::string& out, const Coord& c) {
  put_index(out, c.size());
  for (Index v : c) put_index(out, v);
}
struct Reader {
  const std::string& in;
  std::size_t at = 0;
  Index index() {
    Index v = 0;
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string string() {
    const auto n = static_cast<std::size_t>(index());
    std::string s = in.substr(at, n);
    at += n;
    return s;
  }
  Coord coord() {
    Coord c = Coord::filled(static_cast<int>(index()), 0);
    for (int d = 0; d < c.size(); ++d) c[d] = index();
    return c;
  }
};

std::string pack(const std::vector<DatasetInfo>& infos) {
  std::string out;
  put_index(out, static_cast<Index>(infos.size()));
  for (const DatasetInfo& i : infos) {
    put_string(out, i.name);
    put_index(out, static_cast<Index>(i.type));
    put_coord(out, i.dims);
    put_coord(out, i.ghosts);
    put_index(out, static_cast<Index>(i.block_starts.size()));
    for (const auto& s : i.block_starts) put_coord(out, Coord(s));
    put_index(out, i.group_size);
    put_string(out, i.armada_version);
  }
  return out;
}

std::vector<DatasetInfo> unpack(const std::string& in) {
  Reader r{in};
  std::vector<DatasetInfo> infos(static_cast<std::size_t>(r.index()));
  for (DatasetInfo& i : infos) {
    i.name = r.string();
    i.type = static_cast<ElemType>(r.index());
    i.dims = r.coord();
    i.ghosts = r.coord();
    i.block_starts.resize(static_cast<std::size_t>(r.index()));
    for (auto& s : i.block_starts) s = r.coord().to_vector();
    i.group_size = static_cast<int>(r.index());
    i.armada_version = r.string();
  }
  return infos;
}

std::string broadcast_string(std::string s, const rma::Group& group) {
  std::uint64_t n = s.size();
  rma::broadcast(&n, sizeof n, 0, group);
  s.resize(n);
  if (n) rma::broadcast(s.data(), n, 0, group);
  return s;
}

}  // namespace

void check_same_everywhere(const char* op, const char* argument, const std::string& value, const rma::Group& group) {
  const std::string root = broadcast_string(value, group);
  rma::agree(op, [&] {
    if (root != value)
      throw rma::InvalidArgument(op, argument, value, "differs from group rank 0's value '" + root +
                                                          "' (every member of the group passes the same)");
  }, group);
}

std::string quoted_arguments(const std::string& file, const std::string& name, const Coord& lo, const Coord& hi) {
  return "'" + file + "', '" + name + "'" + (lo.empty() && hi.empty() ? std::string() : ", " + lo.str() + " .. " + hi.str());
}

// ---- what a file holds (rank 0, serially) -------------------------------------------------------------
namespace {

DatasetInfo inspect_dataset(const char* op, const std::string& file, hid_t f, const std::string& name) {
  const std::string where = "dataset '" + name + "' of file '" + file + "'";
  Hid d = checked(H5Dopen2(f, name.c_str(), H5P_DEFAULT), op, "opening " + where);
  Hid type = checked(H5Dget_type(d), op, "reading the type of " + where);
  DatasetInfo info;
  info.name = name;
  if (!element_type_of(type, info.type))
    throw rma::InvalidArgument(op, "name", name, "the " + where + " holds " + describe_type(type) +
                                                     ", which is none of int, long, float, double, complex<float>, complex<double>");
  Hid space = checked(H5Dget_space(d), op, "reading the shape of " + where);
  const int n = H5Sget_simple_extent_ndims(space);
  if (n < 1 || n > max_ndim || H5Sget_simple_extent_type(space) != H5S_SIMPLE)
    throw rma::InvalidArgument(op, "name", name, "the " + where + " has " + std::to_string(n) +
                                                     " dimensions; arrays have 1 to " + std::to_string(max_ndim));
  hsize_t dims[H5S_MAX_RANK];
  H5Sget_simple_extent_dims(space, dims, nullptr);
  info.dims = Coord::filled(n, 0);
  for (int k = 0; k < n; ++k) info.dims[k] = static_cast<Index>(dims[k]);
  if (info.dims.product() == 0)
    throw rma::InvalidArgument(op, "name", name, "the " + where + " is empty (dims " + info.dims.str() + ")");
  info.ghosts = Coord::filled(n, 0);
  if (has_attribute(d, kAttrVersion)) {
    info.armada_version = read_string_attribute(d, kAttrVersion, op);
    const auto ghosts = read_index_attribute(d, kAttrGhosts, op);
    if (static_cast<int>(ghosts.size()) == n) info.ghosts = Coord(ghosts);
    info.group_size = static_cast<int>(read_index_attribute(d, kAttrGroupSize, op).at(0));
    const auto grid = read_index_attribute(d, kAttrGrid, op);
    const auto starts = read_index_attribute(d, kAttrStarts, op);
    std::size_t at = 0;
    for (int k = 0; k < n && k < static_cast<int>(grid.size()); ++k) {
      const auto count = static_cast<std::size_t>(std::max<Index>(0, grid[static_cast<std::size_t>(k)]));
      if (at + count > starts.size()) break;
      info.block_starts.emplace_back(starts.begin() + static_cast<std::ptrdiff_t>(at),
                                     starts.begin() + static_cast<std::ptrdiff_t>(at + count));
      at += count;
    }
  }
  return info;
}

// The names of a group's datasets; `broken` names a hard link whose object cannot be read.
struct DatasetNames {
  std::vector<std::string> names;
  std::string broken;
};

herr_t collect_dataset_name(hid_t group, const char* name, const H5L_info_t* link, void* out) {
  auto& found = *static_cast<DatasetNames*>(out);
  H5O_info_t info;
  if (H5Oget_info_by_name(group, name, &info, H5P_DEFAULT) < 0) {
    // A dangling soft or external link names nothing; a hard link always names an object, so
    // one that cannot be read is damage, reported as such (not as "no dataset of this name").
    if (link->type != H5L_TYPE_HARD) {
      H5Eclear2(H5E_DEFAULT);
      return 0;
    }
    found.broken = name;
    return -1;
  }
  if (info.type == H5O_TYPE_DATASET) found.names.emplace_back(name);
  return 0;
}

// What datasets `names` (null: all) of `file` hold, read serially (the caller checked the file).
std::vector<DatasetInfo> inspect(const char* op, const std::string& file, const std::vector<std::string>* names) {
  const htri_t is_hdf5 = H5Fis_hdf5(file.c_str());
  if (is_hdf5 <= 0) {
    const std::string reason = error_stack_text();
    throw rma::SystemError(op, rma::error_message(op, "file '" + file + "' is not an HDF5 file" +
                                   (reason.empty() ? std::string() : " (HDF5: " + reason + ")")));
  }
  Hid fapl = file_access(MPI_COMM_NULL, op, false);
  Hid f = checked(H5Fopen(file.c_str(), H5F_ACC_RDONLY, fapl), op,
                  "opening file '" + file + "' (truncated or corrupt?)");
  DatasetNames listing;
  if (H5Literate(f, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_dataset_name, &listing) < 0)
    fail_hdf5(op, listing.broken.empty() ? "listing the datasets of file '" + file + "' (corrupt?)"
                                         : "reading object '" + listing.broken + "' of file '" + file + "' (corrupt?)");
  const std::vector<std::string>& all = listing.names;
  std::vector<DatasetInfo> infos;
  for (const std::string& name : names ? *names : all) {
    if (std::find(all.begin(), all.end(), name) == all.end()) {
      std::string have;
      for (const auto& a : all) have += (have.empty() ? "" : ", ") + a;
      throw rma::InvalidArgument(op, "name", name, "file '" + file + "' has no dataset of this name (it has: " +
                                                       (have.empty() ? "none" : have) + ")");
    }
    if (names) {
      infos.push_back(inspect_dataset(op, file, f, name));
      continue;
    }
    try {  // listing everything: datasets no array can hold (strings, ...) are left out
      infos.push_back(inspect_dataset(op, file, f, name));
    } catch (const rma::InvalidArgument&) {
    }
  }
  return infos;
}

}  // namespace

std::vector<DatasetInfo> inspect_on_root(const char* op, const std::string& file, const std::vector<std::string>* names,
                                         const rma::Group& group, std::optional<FileLock>& lock) {
  QuietErrors quiet;
  std::vector<DatasetInfo> infos;
  rma::agree(op, [&] {
    if (group.rank() != 0) return;
    check_readable(file, op);
    lock.emplace(file, FileLock::Mode::read, op);
    infos = inspect(op, file, names);
  }, group);
  return unpack(broadcast_string(group.rank() == 0 ? pack(infos) : std::string(), group));
}

// ---- block transfers -----------------------------------------------------------------------------
namespace {

// Selects this rank's block of `a` (at `offset` in the dataset) in `file_space`, and returns the
// memory space of its allocation (the block inside its ghost frame) with the block selected.
Hid select_block(const char* op, const Array::Impl& a, const Coord& offset, hid_t file_space) {
  const Patch block = a.mine().patch;
  const int n = a.ndim();
  if (block.empty()) {
    check(H5Sselect_none(file_space), op, "selecting nothing in the file");
    const hsize_t one = 1;
    Hid mem = checked(H5Screate_simple(1, &one, nullptr), op, "creating a memory space");
    check(H5Sselect_none(mem), op, "selecting nothing in memory");
    return mem;
  }
  hsize_t file_start[max_ndim], count[max_ndim], mem_dims[max_ndim], mem_start[max_ndim];
  for (int d = 0; d < n; ++d) {
    const Index extent = block.hi[d] - block.lo[d];
    file_start[d] = static_cast<hsize_t>(offset[d] + block.lo[d]);
    count[d] = static_cast<hsize_t>(extent);
    mem_dims[d] = static_cast<hsize_t>(extent + 2 * a.ghosts[d]);
    mem_start[d] = static_cast<hsize_t>(a.ghosts[d]);  // ghost cells are never written or read
  }
  check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, file_start, nullptr, count, nullptr), op,
        "selecting this rank's block in the file");
  Hid mem = checked(H5Screate_simple(n, mem_dims, nullptr), op, "creating a memory space");
  check(H5Sselect_hyperslab(mem, H5S_SELECT_SET, mem_start, nullptr, count, nullptr), op, "selecting the block in memory");
  return mem;
}

void* block_buffer(const Array::Impl& a) {
  static std::byte nothing[16];  // ranks without a block select nothing but need an address
  return a.my_base ? a.my_base : nothing;
}

// Block-cyclic arrays: this rank's elements travel packed, in the order HDF5 walks the union
// of its blocks in the file (row-major). Copies them between the packed buffer and the blocks,
// a run of a block row at a time (to_packed: from the blocks); returns the element count.
Index pack_cyclic(const Array::Impl& a, std::byte* packed, bool to_packed) {
  const Distribution& dist = a.dist;
  const int n = a.ndim();
  const Coord& dims = dist.dims();
  Coord outer = dims, g = Coord::filled(n, 0), k = g;
  outer[n - 1] = 1;  // every row of the array: all indices but the last
  const Index rows = outer.product(), nb_last = static_cast<Index>(dist.bounds(n - 1).size()) - 1;
  Index count = 0;
  for (Index r = 0; r < rows; ++r) {
    Index left = r;
    for (int d = n - 2; d >= 0; --d) { g[d] = left % dims[d]; left /= dims[d]; k[d] = g[d] / dist.block_extents()[d]; }
    for (Index kn = 0; kn < nb_last; ++kn) {
      k[n - 1] = kn;
      if (dist.block_owner(k) != a.my) continue;
      const Patch box = dist.block_patch(k);
      g[n - 1] = box.lo[n - 1];
      std::byte* at = a.place(k).address(g, a.esize);
      const std::size_t bytes = static_cast<std::size_t>(box.hi[n - 1] - box.lo[n - 1]) * a.esize;
      std::byte* p = packed + static_cast<std::ptrdiff_t>(count) * static_cast<std::ptrdiff_t>(a.esize);
      if (packed) std::memcpy(to_packed ? p : at, to_packed ? at : p, bytes);
      count += box.hi[n - 1] - box.lo[n - 1];
    }
  }
  return count;
}

// Selects this rank's blocks of block-cyclic `a` (at `offset` in the dataset) in `file_space`,
// and returns a memory space of `count` packed elements, all selected.
Hid select_cyclic(const char* op, const Array::Impl& a, const Coord& offset, hid_t file_space, Index count) {
  const int n = a.ndim();
  check(H5Sselect_none(file_space), op, "selecting nothing in the file");
  hsize_t start[max_ndim], extent[max_ndim];
  for (const Coord& k : a.dist.blocks_of(a.my)) {
    const Patch box = a.dist.block_patch(k);
    for (int d = 0; d < n; ++d) {
      start[d] = static_cast<hsize_t>(offset[d] + box.lo[d]);
      extent[d] = static_cast<hsize_t>(box.hi[d] - box.lo[d]);
    }
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_OR, start, nullptr, extent, nullptr), op,
          "selecting this rank's blocks in the file");
  }
  const hsize_t elements = static_cast<hsize_t>(std::max<Index>(count, 1));
  Hid mem = checked(H5Screate_simple(1, &elements, nullptr), op, "creating a memory space");
  if (count == 0) check(H5Sselect_none(mem), op, "selecting nothing in memory");
  return mem;
}

// One collective read or write of `a`'s part of dataset `d` at `offset` (file_space: d's).
void transfer_blocks(const char* op, hid_t d, hid_t file_space, const Array::Impl& a, const Coord& offset,
                     bool write, const std::string& what) {
  Hid type = memory_type(a.type);
  Hid dxpl = collective_transfer(op);
  if (!a.dist.cyclic()) {
    Hid mem = select_block(op, a, offset, file_space);
    if (write) check(H5Dwrite(d, type, mem, file_space, dxpl, block_buffer(a)), op, what);
    else check(H5Dread(d, type, mem, file_space, dxpl, block_buffer(a)), op, what);
    return;
  }
  const Index count = pack_cyclic(a, nullptr, true);
  std::vector<std::byte> packed(static_cast<std::size_t>(std::max<Index>(count, 1)) * a.esize);
  Hid mem = select_cyclic(op, a, offset, file_space, count);
  if (write) {
    pack_cyclic(a, packed.data(), true);
    check(H5Dwrite(d, type, mem, file_space, dxpl, packed.data()), op, what);
  } else {
    check(H5Dread(d, type, mem, file_space, dxpl, packed.data()), op, what);
    pack_cyclic(a, packed.data(), false);
  }
}

// Writes the attributes of dataset `d` that describe `a` (docs/io.md, "File format"); those of
// an earlier save of the dataset are replaced (collective).
void write_dataset_attributes(const char* op, hid_t d, const Array::Impl& a) {
  for (const char* name : kDatasetAttributes)
    if (has_attribute(d, name)) check(H5Adelete(d, name), op, std::string("replacing attribute '") + name + "'");
  const int n = a.ndim();
  std::vector<Index> grid, starts;
  for (int k = 0; k < n; ++k) {
    const auto& b = a.dist.bounds(k);
    grid.push_back(static_cast<Index>(b.size()) - 1);
    starts.insert(starts.end(), b.begin(), b.end() - 1);
  }
  write_string_attribute(d, kAttrVersion, ARMADA_VERSION_STRING, op);
  write_string_attribute(d, kAttrType, to_string(a.type), op);
  write_index_attribute(d, kAttrDims, a.dist.dims().to_vector(), op);
  write_index_attribute(d, kAttrGhosts, a.ghosts.to_vector(), op);
  write_index_attribute(d, kAttrGrid, grid, op);
  write_index_attribute(d, kAttrStarts, starts, op);
  write_index_attribute(d, kAttrGroupSize, {a.group.size()}, op);
}

// Creates the dataset of `a` with its attributes (collective).
Hid create_dataset(const char* op, hid_t f, const std::string& where, const Array::Impl& a) {
  const int n = a.ndim();
  hsize_t dims[max_ndim];
  for (int k = 0; k < n; ++k) dims[k] = static_cast<hsize_t>(a.dist.dims()[k]);
  Hid space = checked(H5Screate_simple(n, dims, nullptr), op, "creating the shape of " + where);
  Hid type = memory_type(a.type);
  Hid dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), op, "creating " + where);
  check(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), op, "creating " + where);  // every element is written
  Hid d = checked(H5Dcreate2(f, a.name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), op, "creating " + where);
  write_dataset_attributes(op, d, a);
  return d;
}

// Every member writes its block of `a` to dataset `d` in one collective transfer.
void write_blocks(const char* op, hid_t d, const std::string& where, const Array::Impl& a) {
  Hid file_space = checked(H5Dget_space(d), op, "reading the shape of " + where);
  transfer_blocks(op, d, file_space, a, Coord::filled(a.ndim(), 0), true, "writing " + where);
}

}  // namespace

void read_datasets(const char* op, const std::string& file, const std::vector<std::string>& names,
                   const std::vector<Coord>& offsets, const std::vector<const Array::Impl*>& into) {
  const rma::Group& group = into.front()->group;
  QuietErrors quiet;
  Hid fapl, f;
  rma::agree(op, [&] {
    fapl = file_access(group.comm(), op, false);
    f = checked(H5Fopen(file.c_str(), H5F_ACC_RDONLY, fapl), op, "opening file '" + file + "'");
  }, group);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Array::Impl& a = *into[i];
    const std::string where = "dataset '" + names[i] + "' of file '" + file + "'";
    Hid d;
    rma::agree(op, [&] { d = checked(H5Dopen2(f, names[i].c_str(), H5P_DEFAULT), op, "opening " + where); }, group);
    rma::agree(op, [&] {
      Hid file_space = checked(H5Dget_space(d), op, "reading the shape of " + where);
      transfer_blocks(op, d, file_space, a, offsets[i], false, "reading " + where);
    }, group);
  }
  rma::agree(op, [&] { check(f.close(), op, "closing file '" + file + "'"); }, group);
}

// ---- save ----------------------------------------------------------------------------------------
namespace {

// What a file of `arrays` takes at most: their data, and generously its metadata.
std::size_t file_bytes(const std::vector<const Array::Impl*>& arrays) {
  std::size_t bytes = 64 * 1024;  // superblock, root group, file attributes
  for (const Array::Impl* a : arrays) bytes += static_cast<std::size_t>(a->dist.dims().product()) * a->esize + 8 * 1024;
  return bytes;
}

// Writes `arrays` to `temporary` (which names `file` in messages). Right after the file is
// created, rank 0 reserves its whole size on disk (fallocate of file_bytes): a full disk or a
// file size limit fails there, before HDF5 has allocated or written anything it would have to
// flush. HDF5 1.10 cannot close a file whose flush failed (the handle is left half-destroyed
// and crashes in MPI_Finalize), so no write it does may run out of space.
// `reserved` is rank 0's TemporaryFile (null elsewhere), named `temporary`.
void write_file(const char* op, const std::string& file, const std::string& temporary, TemporaryFile* reserved,
                const std::vector<const Array::Impl*>& arrays) {
  const rma::Group& group = arrays.front()->group;
  const std::string in = " of file '" + file + "' (written as '" + temporary + "')";
  Hid fapl, f;
  rma::agree(op, [&] {
    fapl = file_access(group.comm(), op, true);
    f = checked(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), op, "creating file '" + temporary + "'");
    write_string_attribute(f, kAttrVersion, ARMADA_VERSION_STRING, op);
    write_index_attribute(f, kAttrFormat, {kFormat}, op);
  }, group);
  rma::agree(op, [&] {
    if (group.rank() == 0) {
      release_cached_pages(file);  // the pages of the file being replaced serve the new one
      reserved->reserve(file_bytes(arrays), op);
    }
  }, group);
  std::vector<Hid> datasets(arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i)
    rma::agree(op, [&] { datasets[i] = create_dataset(op, f, "dataset '" + arrays[i]->name + "'" + in, *arrays[i]); }, group);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    rma::agree(op, [&] { write_blocks(op, datasets[i], "dataset '" + arrays[i]->name + "'" + in, *arrays[i]); }, group);
    rma::agree(op, [&] { check(datasets[i].close(), op, "closing dataset '" + arrays[i]->name + "'" + in); }, group);
  }
  rma::agree(op, [&] {
    check(H5Fflush(f, H5F_SCOPE_GLOBAL), op, "flushing file '" + temporary + "'");
    check(f.close(), op, "closing file '" + temporary + "'");
  }, group);
}

// True if `file` can take `arrays` in place: an HDF5 file of Armada's format whose datasets are
// exactly the arrays' (names, element types, dimensions) with contiguous storage allocated in
// full, so that rewriting them allocates nothing. Read by group rank 0 (which holds the file's
// exclusive lock: HDF5's own locking is off for this open); any doubt answers false. A file
// that is not the job user's own (or is a link) is never opened for writing: it is replaced.
bool rewritable(const std::string& file, const std::vector<const Array::Impl*>& arrays) {
  if (!owned_regular_file(file) || ::access(file.c_str(), R_OK | W_OK) != 0 || H5Fis_hdf5(file.c_str()) <= 0) return false;
  try {
    Hid fapl = file_access(MPI_COMM_NULL, "arrays::save", false);
    if (H5Pset_file_locking(fapl, false, true) < 0) return false;
    Hid f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, fapl));
    if (f.get() < 0 || !has_attribute(f, kAttrFormat)) return false;
    DatasetNames listing;
    if (H5Literate(f, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_dataset_name, &listing) < 0) return false;
    const std::vector<std::string>& names = listing.names;
    if (names.size() != arrays.size()) return false;
    for (const Array::Impl* a : arrays) {
      if (std::find(names.begin(), names.end(), a->name) == names.end()) return false;
      Hid d(H5Dopen2(f, a->name.c_str(), H5P_DEFAULT));
      if (d.get() < 0) return false;
      Hid type(H5Dget_type(d)), want = memory_type(a->type), space(H5Dget_space(d)), dcpl(H5Dget_create_plist(d));
      if (H5Tequal(type, want) <= 0 || H5Pget_layout(dcpl) != H5D_CONTIGUOUS) return false;
      const int n = a->ndim();
      hsize_t dims[H5S_MAX_RANK];
      if (H5Sget_simple_extent_ndims(space) != n || H5Sget_simple_extent_dims(space, dims, nullptr) != n) return false;
      for (int k = 0; k < n; ++k)
        if (dims[k] != static_cast<hsize_t>(a->dist.dims()[k])) return false;
      if (H5Dget_storage_size(d) != static_cast<hsize_t>(a->dist.dims().product()) * a->esize) return false;
    }
    return true;
  } catch (const rma::Error&) {
    return false;
  }
}

// Writes `arrays` into the datasets of the same names of `file` (rewritable() said it can), then
// rank 0 syncs it. The collective transfers and the attributes are write_file's.
void rewrite_file(const char* op, const std::string& file, const std::vector<const Array::Impl*>& arrays) {
  const rma::Group& group = arrays.front()->group;
  const std::string in = " of file '" + file + "' (in place)";
  Hid fapl, f;
  rma::agree(op, [&] {
    fapl = file_access(group.comm(), op, false);
    check(H5Pset_file_locking(fapl, false, true), op, "opening file '" + file + "'");  // rank 0 holds its lock
    f = checked(H5Fopen(file.c_str(), H5F_ACC_RDWR, fapl), op, "opening file '" + file + "'");
    if (has_attribute(f, kAttrVersion)) check(H5Adelete(f, kAttrVersion), op, "replacing the version" + in);
    write_string_attribute(f, kAttrVersion, ARMADA_VERSION_STRING, op);
  }, group);
  for (const Array::Impl* a : arrays) {
    const std::string where = "dataset '" + a->name + "'" + in;
    Hid d;
    rma::agree(op, [&] {
      d = checked(H5Dopen2(f, a->name.c_str(), H5P_DEFAULT), op, "opening " + where);
      write_dataset_attributes(op, d, *a);
    }, group);
    rma::agree(op, [&] { write_blocks(op, d, where, *a); }, group);
    rma::agree(op, [&] { check(d.close(), op, "closing " + where); }, group);
  }
  rma::agree(op, [&] {
    check(H5Fflush(f, H5F_SCOPE_GLOBAL), op, "flushing file '" + file + "'");
    check(f.close(), op, "closing file '" + file + "'");
  }, group);
  rma::agree(op, [&] {
    if (group.rank() == 0) make_durable(file, op);
  }, group);
}

}  // namespace

std::vector<const Array::Impl*> checked_set(const char* op, std::span<const Array> arrays, bool unique_names) {
  if (!rma::initialized()) throw rma::StateError(op, std::string(op) + ": the rma runtime is not initialized");
  if (arrays.empty()) throw rma::InvalidArgument(op, "arrays", "{}", "at least one array is needed");
  // The first array names the group the call is collective over: without it there is nobody to
  // agree with, so only this check is local.
  if (!arrays.front().valid()) throw rma::InvalidArgument(op, "arrays", "#0", "is not a live array");
  const rma::Group& group = arrays.front().impl()->group;
  if (!group.is_member())
    detail::fail(op, arrays.front().impl().get(), "arrays", "#0", "this rank is not a member of the array's group");
  std::vector<const Array::Impl*> impls;
  rma::agree(op, [&] {
    for (const Array& a : arrays) {
      if (!a.valid()) throw rma::InvalidArgument(op, "arrays", "#" + std::to_string(impls.size()), "is not a live array");
      impls.push_back(a.impl().get());
    }
    std::set<std::string> names;
    for (const Array::Impl* a : impls) {
      if (!(a->group == group))
        detail::fail(op, a, "arrays", a->name, "is not on the group of " + detail::describe(*impls.front()) +
                                                   " (all arrays of one call share a group)");
      if (a->name.empty() || a->name.find('/') != std::string::npos || a->name == "." )
        detail::fail(op, a, "name", "'" + a->name + "'", "cannot name a dataset (empty, '.' or containing '/')");
      if (unique_names && !names.insert(a->name).second)
        detail::fail(op, a, "name", "'" + a->name + "'", "two arrays of one call have this name (one dataset each)");
    }
  }, group);
  std::string description;
  for (const Array::Impl* a : impls) description += detail::describe(*a) + "; ";
  check_same_everywhere(op, "arrays", description, group);
  return impls;
}

void save_set(const char* op, const std::string& file, std::span<const Array> all,
              const std::vector<const Array::Impl*>& arrays, SaveMode mode) {
  const rma::Group& group = arrays.front()->group;
  check_same_everywhere(op, "file", file, group);
  // Every update issued before the call is in place before a block is written.
  all.front().sync_group();
  const std::size_t bytes = file_bytes(arrays);
  std::optional<FileLock> lock;
  std::optional<TemporaryFile> temporary;  // rank 0's
  QuietErrors quiet;
  char in_place = 0;  // rank 0 decides for the group
  try {
    rma::agree(op, [&] {
      if (group.rank() != 0) return;
      if (file.empty()) throw rma::InvalidArgument(op, "file", "''", "a file name is needed");
      lock.emplace(file, FileLock::Mode::replace, op);
      in_place = mode == SaveMode::in_place && rewritable(file, arrays);
      // In place, only attributes may need new room (a grid of more blocks); HDF5 must never
      // run out of space while it flushes (see write_file).
      check_free_space(file, in_place ? kRewriteRoom : bytes, op);
      if (!in_place) temporary.emplace(file, op);
    }, group);
    rma::broadcast(&in_place, 1, 0, group);
    if (in_place) return rewrite_file(op, file, arrays);
    // Only rank 0 knows the (unpredictable) name; the others check that it leads to the file
    // rank 0 created before HDF5 opens it on every member.
    const std::string name = broadcast_string(temporary ? temporary->name() : std::string(), group);
    FileIdentity identity = temporary ? temporary->identity() : FileIdentity{};
    rma::broadcast(&identity, sizeof identity, 0, group);
    rma::agree(op, [&] {
      if (group.rank() != 0) check_same_file(name, identity, op);
    }, group);
    write_file(op, file, name, temporary ? &*temporary : nullptr, arrays);
    rma::agree(op, [&] {
      if (group.rank() == 0) temporary->commit(file, op);
    }, group);
  } catch (...) {
    if (temporary) temporary->remove();  // nothing half-written stays behind
    throw;
  }
}

}  // namespace io

// ---- public API ------------------------------------------------------------------------------------
void save(const std::string& file, std::span<const Array> arrays, SaveMode mode) {
  constexpr const char* op = "arrays::save";
  io::save_set(op, file, arrays, io::checked_set(op, arrays, true), mode);
}

std::vector<DatasetInfo> list(const std::string& file, const rma::Group& group) {
  constexpr const char* op = "arrays::list";
  if (!group.is_member()) throw rma::InvalidArgument(op, "group", "size " + std::to_string(group.size()), "this rank is not a member");
  io::check_same_everywhere(op, "file", file, group);
  std::optional<io::FileLock> lock;
  return io::inspect_on_root(op, file, nullptr, group, lock);
}

namespace {

// Checks that [lo, hi) (empty: the whole dataset) lies inside `info` and returns it.
Patch checked_patch(const char* op, const DatasetInfo& info, const std::string& file, Coord lo, Coord hi) {
  const Coord& dims = info.dims;
  if (lo.empty() && hi.empty()) return {Coord::filled(dims.size(), 0), dims};
  const std::string where = "dataset '" + info.name + "' of file '" + file + "' (dims " + dims.str() + ")";
  if (lo.size() != dims.size()) throw rma::InvalidArgument(op, "lo", lo.str(), "needs one entry per dimension of the " + where);
  if (hi.size() != dims.size()) throw rma::InvalidArgument(op, "hi", hi.str(), "needs one entry per dimension of the " + where);
  for (int d = 0; d < dims.size(); ++d)
    if (lo[d] < 0 || lo[d] >= hi[d] || hi[d] > dims[d])
      throw rma::InvalidArgument(op, "hi", hi.str(), "patch [" + lo.str() + ", " + hi.str() + ") is empty or not inside the " + where);
  return {lo, hi};
}

Array load_new(const char* op, const std::string& file, const std::string& name, const Coord& lo, const Coord& hi,
               const ArrayOptions& options) {
  if (!rma::initialized()) throw rma::StateError(op, std::string(op) + ": the rma runtime is not initialized");
  const rma::Group group = options.group ? *options.group : rma::Group::world();
  if (!group.is_member()) throw rma::InvalidArgument(op, "group", "size " + std::to_string(group.size()), "this rank is not a member");
  io::check_same_everywhere(op, "file, name and patch", io::quoted_arguments(file, name, lo, hi), group);
  std::optional<io::FileLock> lock;
  const std::vector<std::string> names{name};
  const DatasetInfo info = io::inspect_on_root(op, file, &names, group, lock).front();
  Patch patch;
  rma::agree(op, [&] { patch = checked_patch(op, info, file, lo, hi); }, group);
  ArrayOptions o = options;
  o.group = group;
  if (o.name.empty()) o.name = name;
  const Coord dims = patch.extents();
  if (o.ghosts.empty()) {  // the widths it was saved with, where they fit the new array
    o.ghosts = info.ghosts;
    for (int d = 0; d < dims.size(); ++d) o.ghosts[d] = std::min(o.ghosts[d], dims[d]);
  }
  Array a = Array::create(info.type, dims, o);
  try {
    io::read_datasets(op, file, names, {patch.lo}, {a.impl().get()});
  } catch (...) {
    a.destroy();
    throw;
  }
  a.sync_group();
  return a;
}

void load_existing(const char* op, const std::string& file, const std::string& name, const Coord& lo, const Coord& hi,
                   Array& into) {
  const auto impls = io::checked_set(op, std::span<const Array>(&into, 1), false);
  const Array::Impl& a = *impls.front();
  io::check_same_everywhere(op, "file, name and patch", io::quoted_arguments(file, name, lo, hi), a.group);
  std::optional<io::FileLock> lock;
  const std::vector<std::string> names{name};
  const DatasetInfo info = io::inspect_on_root(op, file, &names, a.group, lock).front();
  Patch patch;
  rma::agree(op, [&] {
    patch = checked_patch(op, info, file, lo, hi);
    io::check_matches(op, info, file, patch.extents(), a);
  }, a.group);
  io::read_datasets(op, file, names, {patch.lo}, impls);
  into.sync_group();
}

}  // namespace

namespace io {
void check_matches(const char* op, const DatasetInfo& info, const std::string& file, const Coord& extents, const Array::Impl& a) {
  const std::string where = "dataset '" + info.name + "' of file '" + file + "'";
  if (info.type != a.type)
    detail::fail(op, &a, "name", info.name, "the " + where + " holds " + to_string(info.type) + " elements, the array " +
                                                to_string(a.type));
  if (!(extents == a.dist.dims()))
    detail::fail(op, &a, "name", info.name, "the " + where + " (or its patch) has extents " + extents.str() +
                                                ", the array dims " + a.dist.dims().str());
}
}  // namespace io

Array load(const std::string& file, const std::string& name, const ArrayOptions& options) {
  return load_new("arrays::load", file, name, {}, {}, options);
}
void load(const std::string& file, const std::string& name, Array& into) {
  load_existing("arrays::load", file, name, {}, {}, into);
}
Array load_patch(const std::string& file, const std::string& name, const Coord& lo, const Coord& hi,
                 const ArrayOptions& options) {
  return load_new("arrays::load_patch", file, name, lo, hi, options);
}
void load_patch(const std::string& file, const std::string& name, const Coord& lo, const Coord& hi, Array& into) {
  load_existing("arrays::load_patch", file, name, lo, hi, into);
}

}  // namespace armada::arrays
