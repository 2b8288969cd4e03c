// SF (sf.h): one POSIX file shared by the processes of GA's default group (a shared file system,
// or one machine), read and written with pread/pwrite on async.hpp's helper threads.
#include "sf.h"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "async.hpp"
#include "ga-mpi.h"
#include "report.hpp"

namespace armada::pario::sf {
namespace {

constexpr int kHandleBase = 8000;
constexpr int kOwnerBase = 1 << 20;  // async owners of SF requests (EAF's are file numbers below)
constexpr int kDone = -1;            // what SF_Wait leaves in a request id (GA's ELIO_DONE)
constexpr int kEof = SF_ERR_EOF;

struct Shared {
  bool live = false;
  int os_fd = -1;
  bool read_only = false;
  double hard_limit = -1;
  std::string path;
  MPI_Comm comm = MPI_COMM_NULL;
};

std::vector<Shared> files;

Shared* live(int handle) {
  const int slot = handle - kHandleBase;
  if (slot < 0 || slot >= static_cast<int>(files.size()) || !files[slot].live) return nullptr;
  return &files[slot];
}

int check(const char* fn, int handle, Shared** s) {
  *s = live(handle);
  if (!*s) return refuse(SF_ERR_ARGUMENT, fn, "handle", std::to_string(handle), "not a live shared file handle");
  if ((*s)->os_fd < 0) return refuse(SF_ERR_ARGUMENT, fn, "handle", std::to_string(handle), "is closed (SF_Close)");
  return 0;
}

bool whole(double v) { return std::isfinite(v) && v >= 0 && v == std::floor(v) && v <= 9007199254740992.0; }

int agree(MPI_Comm comm, int rc) {
  int worst = rc;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm);  // codes are negative
  return worst;
}

// Opens path on every process: the first one creates (empties) it before the others open it.
int open_shared(const char* fn, MPI_Comm comm, const std::string& path, bool create, bool read_only, int* os_fd) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int flags = read_only ? O_RDONLY : O_RDWR;
  int rc = 0;
  if (create && rank == 0) {
    *os_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (*os_fd < 0) rc = refuse(SF_ERR_IO, fn, "fname", quoted(path.c_str()), std::string("cannot be created (") + std::strerror(errno) + ")");
  }
  if (create) MPI_Barrier(comm);
  if (!create || rank != 0) {
    *os_fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (*os_fd < 0) rc = refuse(SF_ERR_IO, fn, "fname", quoted(path.c_str()), std::string("cannot be opened (") + std::strerror(errno) + ")");
  }
  return rc;
}

int create(const char* fn, const char* fname, double hard, int* handle, bool suffixed, int suffix) {
  MPI_Comm comm = GA_MPI_Comm_pgroup_default();
  int rc = 0;
  if (!fname || !*fname) rc = refuse(SF_ERR_ARGUMENT, fn, "fname", quoted(fname), "is empty");
  else if (!handle) rc = refuse(SF_ERR_ARGUMENT, fn, "handle", "NULL", "a place for the handle is required");
  if (rc) return rc;
  std::size_t slot = 0;
  while (slot < files.size() && files[slot].live) ++slot;
  if (slot == files.size()) files.emplace_back();
  const int h = kHandleBase + static_cast<int>(slot);
  const std::string path = std::string(fname) + "." + std::to_string(suffixed ? suffix : h);
  int os_fd = -1;
  if ((rc = agree(comm, open_shared(fn, comm, path, true, false, &os_fd)))) {
    if (os_fd >= 0) ::close(os_fd);
    return rc;
  }
  files[slot] = Shared{true, os_fd, false, hard, path, comm};
  *handle = h;
  return 0;
}

int start(const char* fn, bool write, int handle, double offset, double bytes, char* buffer, int* req_id) {
  Shared* s = nullptr;
  if (const int rc = check(fn, handle, &s)) return rc;
  if (!whole(offset)) return refuse(SF_ERR_ARGUMENT, fn, "offset", std::to_string(offset), "must be a whole number >= 0");
  if (!whole(bytes)) return refuse(SF_ERR_ARGUMENT, fn, "bytes", std::to_string(bytes), "must be a whole number >= 0");
  if (!buffer && bytes > 0) return refuse(SF_ERR_ARGUMENT, fn, "buffer", "NULL", "a buffer is required");
  if (!req_id) return refuse(SF_ERR_ARGUMENT, fn, "req_id", "NULL", "a place for the request id is required");
  if (write && s->read_only)
    return refuse(SF_ERR_ARGUMENT, fn, "handle", std::to_string(handle), "is read-only (SF_Rwtor)");
  if (s->hard_limit > 0 && offset + bytes > s->hard_limit)
    return refuse(SF_ERR_LIMIT, fn, "offset + bytes", std::to_string(static_cast<long long>(offset + bytes)),
                  "exceeds the file's hard limit " + std::to_string(static_cast<long long>(s->hard_limit)));
  *req_id = submit(kOwnerBase + handle, s->os_fd, write, static_cast<std::int64_t>(offset), buffer,
                   static_cast<std::size_t>(bytes));
  return 0;
}

int finish(const char* fn, int* req_id) {
  if (!req_id) return refuse(SF_ERR_ARGUMENT, fn, "req_id", "NULL", "a request id is required");
  if (*req_id == kDone) return 0;  // waited already
  if (owner_of(*req_id) < kOwnerBase)
    return refuse(SF_ERR_ARGUMENT, fn, "req_id", std::to_string(*req_id), "no SF_Read or SF_Write returned it");
  Outcome o;
  wait(*req_id, &o);
  *req_id = kDone;
  if (o.kind == Outcome::Kind::EndOfFile) return kEof;
  return o.kind == Outcome::Kind::Done ? 0 : SF_ERR_IO;
}

// Closes the descriptor of s after its requests; SF_Destroy and SF_Rwtor reopen or remove it.
void shut(int handle, Shared* s) {
  drain(kOwnerBase + handle);
  if (s->os_fd >= 0) ::close(s->os_fd);
  s->os_fd = -1;
}

}  // namespace
}  // namespace armada::pario::sf

using namespace armada::pario;
using namespace armada::pario::sf;

extern "C" {

int SF_Create(char* fname, SFsize_t hard, SFsize_t, SFsize_t, int* handle) {
  return create("SF_Create", fname, hard, handle, false, 0);
}

int SF_Create_suffix(char* fname, SFsize_t hard, SFsize_t, SFsize_t, int* handle, int suffix) {
  return create("SF_Create_suffix", fname, hard, handle, true, suffix);
}

int SF_Destroy(int handle) {
  Shared* s = live(handle);
  if (!s) return refuse(SF_ERR_ARGUMENT, "SF_Destroy", "handle", std::to_string(handle), "not a live shared file handle");
  shut(handle, s);
  MPI_Comm comm = s->comm;
  MPI_Barrier(comm);  // every process is done with the file before it goes
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) ::unlink(s->path.c_str());
  *s = Shared{};
  return 0;
}

int SF_Rwtor(int handle) {
  Shared* s = nullptr;
  if (const int rc = check("SF_Rwtor", handle, &s)) return rc;
  shut(handle, s);
  s->read_only = true;
  return open_shared("SF_Rwtor", s->comm, s->path, false, true, &s->os_fd);
}

int SF_Open(int handle) {
  Shared* s = live(handle);
  if (!s) return refuse(SF_ERR_ARGUMENT, "SF_Open", "handle", std::to_string(handle), "not a live shared file handle");
  if (s->os_fd >= 0) return 0;
  s->read_only = false;
  return open_shared("SF_Open", s->comm, s->path, false, false, &s->os_fd);
}

int SF_Close(int handle) {
  Shared* s = nullptr;
  if (const int rc = check("SF_Close", handle, &s)) return rc;
  shut(handle, s);
  return 0;
}

int SF_Fsync(int handle) {
  Shared* s = nullptr;
  if (const int rc = check("SF_Fsync", handle, &s)) return rc;
  drain(kOwnerBase + handle);
  return ::fsync(s->os_fd) == 0 ? 0 : SF_ERR_IO;
}

int SF_Write(int handle, SFsize_t offset, SFsize_t bytes, char* buffer, int* req_id) {
  return start("SF_Write", true, handle, offset, bytes, buffer, req_id);
}

int SF_Read(int handle, SFsize_t offset, SFsize_t bytes, char* buffer, int* req_id) {
  return start("SF_Read", false, handle, offset, bytes, buffer, req_id);
}

int SF_Wait(int* req_id) { return finish("SF_Wait", req_id); }

int SF_Waitall(int* list, int num) {
  if (num < 0 || (num > 0 && !list))
    return refuse(SF_ERR_ARGUMENT, "SF_Waitall", "num", std::to_string(num), "must be >= 0, with a list of num ids");
  int rc = 0;
  for (int i = 0; i < num; ++i)
    if (const int r = finish("SF_Waitall", &list[i]); r && !rc) rc = r;
  return rc;
}

void SF_Errmsg(int code, char* msg) {
  if (!msg) return;
  const char* text = "";
  switch (code) {
    case 0: text = "OK"; break;
    case SF_ERR_ARGUMENT: text = "bad argument (handle, offset, size or request)"; break;
    case SF_ERR_IO: text = "file system operation on the shared file did not succeed"; break;
    case SF_ERR_LIMIT: text = "request beyond the hard size limit of the shared file"; break;
    case kEof: text = "end of file"; break;
  }
  std::strcpy(msg, text);
}

}  // extern "C"
