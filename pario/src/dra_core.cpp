// DRA on MPI-IO: a disk array is one file, a header of kHeaderBytes then the elements in C order;
// each process of GA's default group moves the part of the global array it owns
// (NGA_Distribution) with one collective MPI-IO call through a subarray view.
#include "dra_core.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "armada_ga_type_names.hpp"
#include "dra.h"
#include "ga-mpi.h"
#include "ga.h"

namespace armada::pario::dra {
namespace {

using ga_names::type_name;
constexpr MPI_Offset kHeaderBytes = 4096;
constexpr int kHandleBase = 7000;  // handles are kHandleBase + slot: a GA array's handle is no DRA's
constexpr int kDefaultMaxArrays = 128;
constexpr int kMaxMaxArrays = 4096;
constexpr char kMagic[16] = "armada-dra-1";

struct Header {
  char magic[16];
  std::int64_t type;
  std::int64_t ndim;
  std::int64_t dims[kMaxDim];
  std::int64_t name_bytes;
  char name[kHeaderBytes - 16 - 8 * (3 + kMaxDim)];
};
static_assert(sizeof(Header) == kHeaderBytes);

struct DiskArray {
  bool live = false;
  MPI_File fh = MPI_FILE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
  int mode = 0;
  int type = 0;
  int ndim = 0;
  std::int64_t dims[kMaxDim] = {};
  std::string name, filename;
};

bool initialized = false;
int max_arrays = 0;
std::vector<DiskArray> arrays;
int next_request = 0;

std::size_t type_size(int type) {
  switch (type) {
    case C_INT: case C_FLOAT: return 4;
    case C_LONG: case C_DBL: case C_SCPL: return 8;
    case C_DCPL: return 16;
  }
  return 0;
}

std::string mpi_text(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(rc, text, &n);
  return std::string(text, n);
}

std::string mode_text(int mode) {
  return mode == DRA_R ? "DRA_R" : mode == DRA_W ? "DRA_W" : mode == DRA_RW ? "DRA_RW" : std::to_string(mode);
}

int check_ready(const Caller& c) {
  if (!initialized)
    return refuse(DRA_ERR_STATE, c.function, "(DRA)", "not initialized", "call DRA_Init (dra_init) first");
  return 0;
}

DiskArray* live(int d_a) {
  const int slot = d_a - kHandleBase;
  if (slot < 0 || slot >= static_cast<int>(arrays.size()) || !arrays[slot].live) return nullptr;
  return &arrays[slot];
}

int check_handle(const Caller& c, int d_a, DiskArray** d) {
  if (const int rc = check_ready(c)) return rc;
  *d = live(d_a);
  if (!*d) return refuse(DRA_ERR_ARGUMENT, c.function, "d_a", std::to_string(d_a), "not an open disk array handle");
  return 0;
}

int check_mode(const Caller& c, int mode) {
  if (mode != DRA_R && mode != DRA_W && mode != DRA_RW)
    return refuse(DRA_ERR_ARGUMENT, c.function, "mode", std::to_string(mode), "must be DRA_R, DRA_W or DRA_RW");
  return 0;
}

int free_slot(const Caller& c, int* slot) {
  int s = 0;
  while (s < static_cast<int>(arrays.size()) && arrays[s].live) ++s;
  if (s >= max_arrays)
    return refuse(DRA_ERR_STATE, c.function, "d_a", "(none free)",
                  std::to_string(max_arrays) + " disk arrays are open (dra_init's max_arrays)");
  if (s == static_cast<int>(arrays.size())) arrays.emplace_back();
  *slot = s;
  return 0;
}

// Any rank's failure becomes every rank's (collective calls return the same code everywhere).
int agree(MPI_Comm comm, int rc) {
  int worst = rc;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, comm);
  return worst;
}

MPI_Comm group_comm() { return GA_MPI_Comm_pgroup_default(); }

int open_file(const Caller& c, MPI_Comm comm, const char* filename, int amode, MPI_File* fh) {
  const int rc = MPI_File_open(comm, filename, amode, MPI_INFO_NULL, fh);
  if (rc != MPI_SUCCESS)
    return refuse(DRA_ERR_IO, c.function, "filename", quoted(filename), "cannot be opened (" + mpi_text(rc) + ")");
  return 0;
}

// GA's limits (DRA_MAX_NAME, DRA_MAX_FNAME): programs size NDRA_Inquire's buffers for them.
constexpr std::size_t kMaxName = 72, kMaxFilename = 248;

int check_filename(const Caller& c, const char* filename) {
  if (!filename || !*filename) return refuse(DRA_ERR_ARGUMENT, c.function, "filename", quoted(filename), "is empty");
  if (std::strlen(filename) > kMaxFilename)
    return refuse(DRA_ERR_ARGUMENT, c.function, "filename", quoted(filename),
                  "longer than " + std::to_string(kMaxFilename) + " characters (GA's DRA_MAX_FNAME)");
  return 0;
}

int check_dims(const Caller& c, int ndim, const std::int64_t* dims) {
  if (ndim < 1 || ndim > kMaxDim)
    return refuse(DRA_ERR_ARGUMENT, c.function, "ndim", std::to_string(ndim), "must be in 1 .. 7");
  for (int d = 0; d < ndim; ++d)
    if (dims[d] < 1 || dims[d] > INT_MAX)  // MPI-IO's subarray views count in int
      return refuse(DRA_ERR_ARGUMENT, c.function, c.entry("dims", d, ndim), std::to_string(dims[d]),
                    "must be in 1 .. " + std::to_string(INT_MAX));
  return 0;
}

// A file shorter than its header says (copied in part, cut by a full disk) would read as zeros.
int check_size(const Caller& c, MPI_File fh, const char* filename, const Header& h) {
  MPI_Offset size = 0, want = static_cast<MPI_Offset>(type_size(static_cast<int>(h.type)));
  for (int d = 0; d < h.ndim; ++d) want *= h.dims[d];
  MPI_File_get_size(fh, &size);
  if (size >= kHeaderBytes + want) return 0;
  return refuse(DRA_ERR_IO, c.function, "filename", quoted(filename),
                "is truncated: " + std::to_string(size) + " bytes, its array needs " +
                    std::to_string(kHeaderBytes + want));
}

int new_request() { return next_request == INT_MAX ? (next_request = 0) : next_request++; }

// A box of an n-d index space, inclusive, C order.
struct Box {
  int ndim = 0;
  std::int64_t lo[kMaxDim] = {}, hi[kMaxDim] = {};
  std::int64_t extent(int d) const { return hi[d] - lo[d] + 1; }
  bool empty() const {
    for (int d = 0; d < ndim; ++d)
      if (hi[d] < lo[d]) return true;
    return false;
  }
  std::int64_t count() const {
    if (empty()) return 0;
    std::int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= extent(d);
    return n;
  }
};

// A rows x cols matrix of elem-byte elements, transposed.
std::vector<char> transposed(const std::vector<char>& in, std::int64_t rows, std::int64_t cols, std::size_t elem) {
  std::vector<char> out(in.size());
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      std::memcpy(&out[(j * rows + i) * elem], &in[(i * cols + j) * elem], elem);
  return out;
}

// The block of g_a this process moves: the one it owns; of a block-cyclic array (many blocks per
// process, which NGA_Distribution numbers by block, not by process) an even slab of rows of the
// section instead, moved with NGA_Get/NGA_Put from wherever its blocks live.
void my_block(int g_a, const Box& g, std::int64_t* lo, std::int64_t* hi) {
  if (GA_Total_blocks(g_a) <= 0) {
    NGA_Distribution64(g_a, GA_Nodeid(), lo, hi);
    return;
  }
  const std::int64_t rows = g.extent(0), np = GA_Nnodes(), me = GA_Nodeid();
  const std::int64_t q = rows / np, rem = rows % np;
  lo[0] = g.lo[0] + me * q + std::min(me, rem);
  hi[0] = lo[0] + q + (me < rem ? 1 : 0) - 1;
  for (int d = 1; d < g.ndim; ++d) {
    lo[d] = g.lo[d];
    hi[d] = g.hi[d];
  }
}

// The part of section g (of g_a) this process moves, and where it lies in section ds of the disk
// array (shifted, and with transp the two dimensions swapped).
void my_part(int g_a, const Box& g, const Box& ds, bool transp, Box* mine, Box* disk) {
  std::int64_t lo[kMaxDim], hi[kMaxDim];
  my_block(g_a, g, lo, hi);
  mine->ndim = disk->ndim = g.ndim;
  for (int d = 0; d < g.ndim; ++d) {
    mine->lo[d] = std::max(lo[d], g.lo[d]);
    mine->hi[d] = std::min(hi[d], g.hi[d]);
  }
  for (int d = 0; d < g.ndim; ++d) {
    const int from = transp ? 1 - d : d;
    disk->lo[d] = ds.lo[d] + mine->lo[from] - g.lo[from];
    disk->hi[d] = ds.lo[d] + mine->hi[from] - g.lo[from];
  }
}

// One collective MPI-IO call moving `part` of the disk array (`count` elements) to or from buf.
int file_io(DiskArray& a, bool write, const Box& part, std::int64_t count, void* buf) {
  const std::size_t elem = type_size(a.type);
  MPI_Datatype etype = MPI_DATATYPE_NULL, filetype = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(elem), MPI_BYTE, &etype);
  MPI_Type_commit(&etype);
  if (count > 0) {
    int sizes[kMaxDim], sub[kMaxDim], starts[kMaxDim];
    for (int d = 0; d < a.ndim; ++d) {
      sizes[d] = static_cast<int>(a.dims[d]);
      sub[d] = static_cast<int>(part.extent(d));
      starts[d] = static_cast<int>(part.lo[d]);
    }
    MPI_Type_create_subarray(a.ndim, sizes, sub, starts, MPI_ORDER_C, etype, &filetype);
    MPI_Type_commit(&filetype);
  }
  int rc = MPI_File_set_view(a.fh, kHeaderBytes, etype, count > 0 ? filetype : etype, "native", MPI_INFO_NULL);
  const int n = static_cast<int>(count);
  if (rc == MPI_SUCCESS)
    rc = write ? MPI_File_write_all(a.fh, buf, n, etype, MPI_STATUS_IGNORE)
               : MPI_File_read_all(a.fh, buf, n, etype, MPI_STATUS_IGNORE);
  if (filetype != MPI_DATATYPE_NULL) MPI_Type_free(&filetype);
  MPI_Type_free(&etype);
  return rc;
}

// Moves section g of g_a to (write) or from section ds of disk array a; arguments checked.
int move(const Caller& c, bool write, bool transp, int g_a, const Box& g, DiskArray& a, const Box& ds) {
  GA_Sync();  // a write sees every process's earlier puts; a read overwrites nothing still read
  Box mine, disk;
  my_part(g_a, g, ds, transp, &mine, &disk);
  const std::int64_t count = mine.count();
  int rc = count > INT_MAX ? refuse(DRA_ERR_ARGUMENT, c.function, "g_a", std::to_string(g_a),
                                    "a process's part of the section exceeds 2^31-1 elements")
                           : 0;
  if ((rc = agree(a.comm, rc))) return rc;
  const std::size_t elem = type_size(a.type);
  std::vector<char> buf(static_cast<std::size_t>(count) * elem);
  std::int64_t ld[kMaxDim] = {};
  for (int d = 1; d < g.ndim; ++d) ld[d - 1] = mine.extent(d);
  if (write && count > 0) {
    NGA_Get64(g_a, mine.lo, mine.hi, buf.data(), ld);
    if (transp) buf = transposed(buf, mine.extent(0), mine.extent(1), elem);
  }
  rc = file_io(a, write, disk, count, buf.data());
  if (rc != MPI_SUCCESS)
    rc = refuse(DRA_ERR_IO, c.function, "d_a", a.filename, std::string(write ? "writing" : "reading") +
                " its file failed (" + mpi_text(rc) + ")");
  if (!write && rc == 0 && count > 0) {
    if (transp) buf = transposed(buf, mine.extent(1), mine.extent(0), elem);
    NGA_Put64(g_a, mine.lo, mine.hi, buf.data(), ld);
  }
  GA_Sync();
  return agree(a.comm, rc);
}

// The checks both whole-array and section transfers make: the handles, the mode, the types.
int check_pair(const Caller& c, bool write, int g_a, int d_a, DiskArray** d, int* gndim, std::int64_t* gdims) {
  if (const int rc = check_handle(c, d_a, d)) return rc;
  if ((*d)->mode == (write ? DRA_R : DRA_W))
    return refuse(DRA_ERR_ARGUMENT, c.function, "d_a", std::to_string(d_a),
                  std::string("was opened ") + mode_text((*d)->mode) + ": it cannot be " + (write ? "written" : "read"));
  if (!GA_Valid_handle(g_a))
    return refuse(DRA_ERR_ARGUMENT, c.function, "g_a", std::to_string(g_a), "not a live global array handle");
  int gtype = 0;
  NGA_Inquire64(g_a, &gtype, gndim, gdims);
  if (canonical_type(gtype) != (*d)->type)
    return refuse(DRA_ERR_ARGUMENT, c.function, "g_a", std::to_string(g_a),
                  "holds " + type_name(gtype) + ", the disk array " + type_name((*d)->type));
  if (*gndim != (*d)->ndim)
    return refuse(DRA_ERR_ARGUMENT, c.function, "g_a", std::to_string(g_a),
                  "has " + std::to_string(*gndim) + " dimensions, the disk array " + std::to_string((*d)->ndim));
  return 0;
}

// A section [lo, hi] of an array of dims, checked: 0 <= lo <= hi < dims (as the caller counts).
int check_box(const Caller& c, const char* lo_name, const char* hi_name, int ndim, const std::int64_t* dims,
              const std::int64_t* lo, const std::int64_t* hi, Box* box) {
  box->ndim = ndim;
  for (int d = 0; d < ndim; ++d) {
    const std::string range = std::to_string(c.shown(0)) + " .. " + std::to_string(c.shown(dims[d] - 1));
    if (lo[d] < 0 || lo[d] >= dims[d])
      return refuse(DRA_ERR_ARGUMENT, c.function, c.entry(lo_name, d, ndim), std::to_string(c.shown(lo[d])),
                    "must be in " + range);
    if (hi[d] < lo[d] || hi[d] >= dims[d])
      return refuse(DRA_ERR_ARGUMENT, c.function, c.entry(hi_name, d, ndim), std::to_string(c.shown(hi[d])),
                    "must be in " + c.entry(lo_name, d, ndim) + " .. " + std::to_string(c.shown(dims[d] - 1)));
    box->lo[d] = lo[d];
    box->hi[d] = hi[d];
  }
  return 0;
}

// The checks' verdict agreed over the group: a process whose own arguments passed returns the
// code another process's refusal gave (saying so), instead of entering the collective I/O alone.
int agreed_checks(const Caller& c, int rc) {
  const int all = agree(group_comm(), rc);
  if (all && !rc)
    refuse(all, c.function, "(arguments)", "this process's", "valid here, but another process of the group refused its own");
  return all;
}

int check_section(const Caller& c, bool write, bool transp, int g_a, const std::int64_t* glo, const std::int64_t* ghi,
                  int d_a, const std::int64_t* dlo, const std::int64_t* dhi, DiskArray** dp, Box* g, Box* ds) {
  DiskArray*& d = *dp;
  int gndim = 0;
  std::int64_t gdims[kMaxDim];
  if (const int rc = check_pair(c, write, g_a, d_a, &d, &gndim, gdims)) return rc;
  if (const int rc = check_box(c, "glo", "ghi", gndim, gdims, glo, ghi, g)) return rc;
  if (const int rc = check_box(c, "dlo", "dhi", d->ndim, d->dims, dlo, dhi, ds)) return rc;
  if (transp && gndim != 2)
    return refuse(DRA_ERR_ARGUMENT, c.function, "transp", "true", "only 2-d sections can be transposed");
  for (int k = 0; k < gndim; ++k) {
    const int from = transp ? 1 - k : k;
    if (ds->extent(k) != g->extent(from))
      return refuse(DRA_ERR_ARGUMENT, c.function, c.entry("dhi", k, gndim), std::to_string(c.shown(ds->hi[k])),
                    "the disk section's extent " + std::to_string(ds->extent(k)) + " differs from the " +
                        (transp ? "transposed " : "") + "global section's " + std::to_string(g->extent(from)));
  }
  return 0;
}

int check_whole(const Caller& c, bool write, int g_a, int d_a, DiskArray** d, Box* all) {
  int gndim = 0;
  std::int64_t gdims[kMaxDim];
  if (const int rc = check_pair(c, write, g_a, d_a, d, &gndim, gdims)) return rc;
  all->ndim = gndim;
  for (int k = 0; k < gndim; ++k) {
    if (gdims[k] != (*d)->dims[k])
      return refuse(DRA_ERR_ARGUMENT, c.function, "g_a", std::to_string(g_a),
                    "its " + c.entry("dims", k, gndim) + " = " + std::to_string(gdims[k]) +
                        " differs from the disk array's " + std::to_string((*d)->dims[k]) + " (use the section call)");
    all->hi[k] = gdims[k] - 1;
  }
  return 0;
}

}  // namespace

int section(const Caller& c, bool write, bool transp, int g_a, const std::int64_t* glo, const std::int64_t* ghi,
            int d_a, const std::int64_t* dlo, const std::int64_t* dhi, int* request) {
  DiskArray* d = nullptr;
  Box g, ds;
  if (const int rc = agreed_checks(c, check_section(c, write, transp, g_a, glo, ghi, d_a, dlo, dhi, &d, &g, &ds)))
    return rc;
  if (const int rc = move(c, write, transp, g_a, g, *d, ds)) return rc;
  if (request) *request = new_request();
  return 0;
}

int whole(const Caller& c, bool write, int g_a, int d_a, int* request) {
  DiskArray* d = nullptr;
  Box all;
  if (const int rc = agreed_checks(c, check_whole(c, write, g_a, d_a, &d, &all))) return rc;
  if (const int rc = move(c, write, false, g_a, all, *d, all)) return rc;
  if (request) *request = new_request();
  return 0;
}

int canonical_type(int t) {
  switch (t) {
    case C_INT: return C_INT;
    case C_LONG: case C_LONGLONG: case F_INT: return C_LONG;
    case C_FLOAT: case F_REAL: return C_FLOAT;
    case C_DBL: case F_DBL: return C_DBL;
    case C_SCPL: case F_SCPL: return C_SCPL;
    case C_DCPL: case F_DCPL: return C_DCPL;
  }
  return 0;
}

int ndim_of(int d_a) {
  const DiskArray* d = live(d_a);
  return d ? d->ndim : 0;
}

int init(const Caller& c, int max) {
  if (max < -1 || max == 0 || max > kMaxMaxArrays)
    return refuse(DRA_ERR_ARGUMENT, c.function, "max_arrays", std::to_string(max),
                  "must be -1 (the default, " + std::to_string(kDefaultMaxArrays) + ") or 1 .. " +
                      std::to_string(kMaxMaxArrays));
  GA_Sync();
  max_arrays = std::max<int>(max == -1 ? kDefaultMaxArrays : max, static_cast<int>(arrays.size()));
  initialized = true;
  return 0;
}

int terminate() {
  for (std::size_t s = 0; s < arrays.size(); ++s)
    if (arrays[s].live) close(Caller{"dra_terminate"}, kHandleBase + static_cast<int>(s), false);
  arrays.clear();
  initialized = false;
  GA_Sync();
  return 0;
}

int create(const Caller& c, int type, int ndim, const std::int64_t* dims, const char* name, const char* filename,
           int mode, int* d_a) {
  if (const int rc = check_ready(c)) return rc;
  const int t = canonical_type(type);
  if (!t) return refuse(DRA_ERR_ARGUMENT, c.function, "type", std::to_string(type), "not an array type DRA stores");
  if (const int rc = check_dims(c, ndim, dims)) return rc;
  if (const int rc = check_filename(c, filename)) return rc;
  const std::string label = name ? name : "";
  if (label.size() > kMaxName)
    return refuse(DRA_ERR_ARGUMENT, c.function, "name", quoted(name),
                  "longer than " + std::to_string(kMaxName) + " characters (GA's DRA_MAX_NAME)");
  if (const int rc = check_mode(c, mode)) return rc;
  int slot = 0;
  if (const int rc = free_slot(c, &slot)) return rc;

  MPI_Comm comm = group_comm();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // A new array reads as zeros: an older file of that name goes first, then the size is set.
  if (rank == 0) MPI_File_delete(filename, MPI_INFO_NULL);
  MPI_Barrier(comm);
  MPI_File fh = MPI_FILE_NULL;
  if (const int rc = agree(comm, open_file(c, comm, filename, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh))) {
    if (fh != MPI_FILE_NULL) MPI_File_close(&fh);
    return rc;
  }
  MPI_Offset bytes = static_cast<MPI_Offset>(type_size(t));
  for (int d = 0; d < ndim; ++d) bytes *= dims[d];
  int rc = MPI_File_set_size(fh, kHeaderBytes + bytes);
  if (rank == 0 && rc == MPI_SUCCESS) {
    Header h{};
    std::memcpy(h.magic, kMagic, sizeof(kMagic));
    h.type = t;
    h.ndim = ndim;
    std::copy(dims, dims + ndim, h.dims);
    h.name_bytes = static_cast<std::int64_t>(label.size());
    std::memcpy(h.name, label.data(), label.size());
    rc = MPI_File_write_at(fh, 0, &h, sizeof(h), MPI_BYTE, MPI_STATUS_IGNORE);
  }
  if (rc != MPI_SUCCESS) rc = refuse(DRA_ERR_IO, c.function, "filename", quoted(filename), "cannot be written (" + mpi_text(rc) + ")");
  if ((rc = agree(comm, rc))) {
    MPI_File_close(&fh);
    return rc;
  }
  MPI_File_sync(fh);
  DiskArray& a = arrays[slot];
  a = DiskArray{true, fh, comm, mode, t, ndim, {}, label, filename};
  std::copy(dims, dims + ndim, a.dims);
  *d_a = kHandleBase + slot;
  return 0;
}

int open(const Caller& c, const char* filename, int mode, int* d_a) {
  if (const int rc = check_ready(c)) return rc;
  if (const int rc = check_filename(c, filename)) return rc;
  if (const int rc = check_mode(c, mode)) return rc;
  int slot = 0;
  if (const int rc = free_slot(c, &slot)) return rc;
  MPI_Comm comm = group_comm();
  MPI_File fh = MPI_FILE_NULL;
  const int amode = mode == DRA_R ? MPI_MODE_RDONLY : MPI_MODE_RDWR;
  if (const int rc = agree(comm, open_file(c, comm, filename, amode, &fh))) {
    if (fh != MPI_FILE_NULL) MPI_File_close(&fh);
    return rc;
  }
  Header h{};
  int rc = MPI_File_read_at_all(fh, 0, &h, sizeof(h), MPI_BYTE, MPI_STATUS_IGNORE);
  const bool ok = rc == MPI_SUCCESS && std::memcmp(h.magic, kMagic, sizeof(kMagic)) == 0 && canonical_type(
      static_cast<int>(h.type)) && h.ndim >= 1 && h.ndim <= kMaxDim && h.name_bytes >= 0 &&
      h.name_bytes <= static_cast<std::int64_t>(kMaxName);
  rc = ok ? 0 : refuse(DRA_ERR_IO, c.function, "filename", quoted(filename), "is not a disk array file");
  if (rc == 0) rc = check_size(c, fh, filename, h);
  if ((rc = agree(comm, rc))) {
    MPI_File_close(&fh);
    return rc;
  }
  DiskArray& a = arrays[slot];
  a = DiskArray{true, fh, comm, mode, static_cast<int>(h.type), static_cast<int>(h.ndim), {},
                std::string(h.name, static_cast<std::size_t>(h.name_bytes)), filename};
  std::copy(h.dims, h.dims + h.ndim, a.dims);
  *d_a = kHandleBase + slot;
  return 0;
}

int inquire(const Caller& c, int d_a, int* type, int* ndim, std::int64_t* dims, std::string* name,
            std::string* filename) {
  DiskArray* d = nullptr;
  if (const int rc = check_handle(c, d_a, &d)) return rc;
  if (type) *type = d->type;
  if (ndim) *ndim = d->ndim;
  if (dims) std::copy(d->dims, d->dims + d->ndim, dims);
  if (name) *name = d->name;
  if (filename) *filename = d->filename;
  return 0;
}

int close(const Caller& c, int d_a, bool remove) {
  DiskArray* d = nullptr;
  if (const int rc = check_handle(c, d_a, &d)) return rc;
  MPI_Comm comm = d->comm;
  int rc = MPI_File_close(&d->fh);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Barrier(comm);  // every process has closed before the file goes
  if (remove && rank == 0 && rc == MPI_SUCCESS) rc = MPI_File_delete(d->filename.c_str(), MPI_INFO_NULL);
  if (rc != MPI_SUCCESS)
    rc = refuse(DRA_ERR_IO, c.function, "d_a", std::to_string(d_a),
                "its file " + quoted(d->filename.c_str()) + " cannot be " + (remove ? "deleted" : "closed") + " (" +
                    mpi_text(rc) + ")");
  *d = DiskArray{};
  return agree(comm, rc);
}

int wait(const Caller& c, int request) {
  if (request == DRA_REQ_INVALID || (request >= 0 && request < next_request)) return 0;
  return refuse(DRA_ERR_ARGUMENT, c.function, "request", std::to_string(request), "no read or write returned it");
}

int probe(const Caller& c, int request, int* status) {
  if (const int rc = wait(c, request)) return rc;
  if (status) *status = 0;  // every request is complete when its read or write returns
  return 0;
}


}  // namespace armada::pario::dra
