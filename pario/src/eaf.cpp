// EAF (eaf.h): a table of open files of this process over POSIX descriptors; asynchronous
// requests go through async.hpp. Errors are GA's codes, returned before any byte moves.
#include "eaf.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <deque>
#include <vector>

#include "async.hpp"

namespace armada::pario {
namespace {

constexpr int kMaxFiles = 256;

struct Stats {
  long calls[5] = {};      // write, read, awrite, aread, wait
  double bytes[4] = {};    // write, read, awrite, aread
  double seconds[5] = {};  // as calls
};
enum Counter { kWrite, kRead, kAwrite, kAread, kWait };

struct File {
  int os_fd = -1;  // -1: a free slot
  int mode = 0;
  std::string name;
  Stats stats;
};

std::mutex table_mutex;
std::deque<File> table;  // a deque: growing it moves no File a caller holds

double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// The open file `fd` (nullptr when fd names none). Slots are reused, never moved, so the pointer stays
// valid while the program does not close fd concurrently (GA's EAF is not thread-safe either).
File* file(int fd) {
  std::lock_guard lock(table_mutex);
  if (fd < 0 || fd >= static_cast<int>(table.size()) || table[fd].os_fd < 0) return nullptr;
  return &table[fd];
}

// An offset or length given as a double: a whole number in [0, 2^53]; otherwise the code to return.
int as_offset(double value, int negative_code, std::int64_t* out) {
  if (!std::isfinite(value) || value != std::floor(value)) return EAF_ERR_NONINTEGER_OFFSET;
  if (value < 0 || value > 9007199254740992.0) return negative_code;
  *out = static_cast<std::int64_t>(value);
  return EAF_OK;
}

int outcome_code(const Outcome& o, int failed_code) {
  switch (o.kind) {
    case Outcome::Kind::Done: return EAF_OK;
    case Outcome::Kind::EndOfFile: return EAF_ERR_EOF;
    case Outcome::Kind::Failed: return failed_code;
  }
  return failed_code;
}

// What a read or write (synchronous or not) checks before it starts: the file, its mode, the
// buffer and the offset.
int check_transfer(int fd, bool write, double offset, const void* buf, size_t bytes, int code, File** f,
                   std::int64_t* off) {
  *f = file(fd);
  if (!*f) return EAF_ERR_INVALID_FD;
  if ((*f)->mode == (write ? EAF_R : EAF_W)) return code;  // the file was not opened for this
  if (!buf && bytes > 0) return code;
  return as_offset(offset, code, off);
}

int start(int fd, bool write, double offset, void* buf, size_t bytes, int* req_id) {
  const double t0 = now();
  const int code = write ? EAF_ERR_AWRITE : EAF_ERR_AREAD;
  File* f = nullptr;
  std::int64_t off = 0;
  if (const int rc = check_transfer(fd, write, offset, buf, bytes, code, &f, &off)) return rc;
  if (!req_id) return code;
  *req_id = submit(fd, f->os_fd, write, off, buf, bytes);
  const int c = write ? kAwrite : kAread;
  f->stats.calls[c]++;
  f->stats.bytes[c] += static_cast<double>(bytes);
  f->stats.seconds[c] += now() - t0;
  return EAF_OK;
}

int move(int fd, bool write, double offset, void* buf, size_t bytes) {
  const double t0 = now();
  const int code = write ? EAF_ERR_WRITE : EAF_ERR_READ;
  File* f = nullptr;
  std::int64_t off = 0;
  if (const int rc = check_transfer(fd, write, offset, buf, bytes, code, &f, &off)) return rc;
  const int rc = outcome_code(transfer(f->os_fd, write, off, buf, bytes), code);
  if (rc == EAF_OK) {
    const int c = write ? kWrite : kRead;
    f->stats.calls[c]++;
    f->stats.bytes[c] += static_cast<double>(bytes);
    f->stats.seconds[c] += now() - t0;
  }
  return rc;
}

// The directory EAF_Stat asks about: path itself when it ends in '/', else the one holding it.
std::string directory_of(const char* path) {
  std::string p(path);
  if (!p.empty() && p.back() == '/') return p;
  const auto slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : p.substr(0, slash);
}

}  // namespace
}  // namespace armada::pario

using namespace armada::pario;

extern "C" {

int EAF_Open(const char* fname, int type, int* fd) {
  if (!fname || !*fname || !fd) return EAF_ERR_OPEN;
  int flags = 0;
  switch (type) {
    case EAF_RW: flags = O_RDWR | O_CREAT; break;
    case EAF_W: flags = O_WRONLY | O_CREAT; break;
    case EAF_R: flags = O_RDONLY; break;
    default: return EAF_ERR_OPEN;
  }
  std::lock_guard lock(table_mutex);
  int slot = 0;
  while (slot < static_cast<int>(table.size()) && table[slot].os_fd >= 0) ++slot;
  if (slot == kMaxFiles) return EAF_ERR_MAX_OPEN;
  const int os_fd = ::open(fname, flags | O_CLOEXEC, 0644);
  if (os_fd < 0) return EAF_ERR_OPEN;
  if (slot == static_cast<int>(table.size())) table.emplace_back();
  table[slot] = File{os_fd, type, fname, {}};
  *fd = slot;
  return EAF_OK;
}

int EAF_Close(int fd) {
  File* f = file(fd);
  if (!f) return EAF_ERR_INVALID_FD;
  drain(fd);  // a request still running must not write into a closed (or reused) descriptor
  const int rc = ::close(f->os_fd);
  std::lock_guard lock(table_mutex);
  table[fd] = File{};
  return rc == 0 ? EAF_OK : EAF_ERR_CLOSE;
}

int EAF_Write(int fd, eaf_off_t offset, const void* buf, size_t bytes) {
  return move(fd, true, offset, const_cast<void*>(buf), bytes);
}

int EAF_Read(int fd, eaf_off_t offset, void* buf, size_t bytes) { return move(fd, false, offset, buf, bytes); }

int EAF_Awrite(int fd, eaf_off_t offset, const void* buf, size_t bytes, int* req_id) {
  return start(fd, true, offset, const_cast<void*>(buf), bytes, req_id);
}

int EAF_Aread(int fd, eaf_off_t offset, void* buf, size_t bytes, int* req_id) {
  return start(fd, false, offset, buf, bytes, req_id);
}

int EAF_Wait(int fd, int id) {
  const double t0 = now();
  File* f = file(fd);
  if (!f) return EAF_ERR_INVALID_FD;
  if (owner_of(id) != fd) return EAF_ERR_WAIT;  // unknown, waited already, or another file's
  Outcome o;
  if (!wait(id, &o)) return EAF_ERR_WAIT;
  f->stats.calls[kWait]++;
  f->stats.seconds[kWait] += now() - t0;
  return outcome_code(o, EAF_ERR_WAIT);
}

int EAF_Probe(int id, int* status) {
  if (!status || owner_of(id) < 0) return EAF_ERR_PROBE;
  *status = finished(id) ? 0 : 1;
  return EAF_OK;
}

int EAF_Delete(const char* fname) {
  if (!fname || !*fname) return EAF_ERR_UNLINK;
  if (::unlink(fname) == 0 || errno == ENOENT) return EAF_OK;
  return EAF_ERR_UNLINK;
}

int EAF_Length(int fd, eaf_off_t* length) {
  File* f = file(fd);
  if (!f) return EAF_ERR_INVALID_FD;
  struct stat st {};
  if (!length || ::fstat(f->os_fd, &st) != 0) return EAF_ERR_LENGTH;
  *length = static_cast<eaf_off_t>(st.st_size);
  return EAF_OK;
}

int EAF_Truncate(int fd, eaf_off_t length) {
  File* f = file(fd);
  if (!f) return EAF_ERR_INVALID_FD;
  std::int64_t len = 0;
  if (const int rc = as_offset(length, EAF_ERR_TRUNCATE, &len)) return rc;
  if (f->mode == EAF_R || ::ftruncate(f->os_fd, len) != 0) return EAF_ERR_TRUNCATE;
  return EAF_OK;
}

int EAF_Stat(const char* path, long* avail_kb, char* fstype, int fslen) {
  if (!path || !avail_kb || !fstype) return EAF_ERR_STAT;
  if (fslen < 8) return EAF_ERR_TOO_SHORT;
  struct statvfs vfs {};
  if (::statvfs(directory_of(path).c_str(), &vfs) != 0) return EAF_ERR_STAT;
  // MiB, whatever the name says: GA 5.8 returns MiB here, and NWChem multiplies by 1024.
  *avail_kb = static_cast<long>(static_cast<unsigned long long>(vfs.f_bavail) * vfs.f_frsize >> 20);
  std::strcpy(fstype, "UFS");  // GA's name for a Unix file system
  return EAF_OK;
}

int EAF_Eof(int code) { return code == EAF_ERR_EOF ? 0 : 1; }

void EAF_Errmsg(int code, char* msg) {
  if (!msg) return;
  const char* text = "";
  switch (code) {
    case EAF_OK: text = "OK"; break;
    case EAF_ERR_EOF: text = "end of file"; break;
    case EAF_ERR_MAX_OPEN: text = "too many open files"; break;
    case EAF_ERR_MEMORY: text = "memory allocation failed"; break;
    case EAF_ERR_OPEN: text = "failed opening file"; break;
    case EAF_ERR_CLOSE: text = "failed closing file"; break;
    case EAF_ERR_INVALID_FD: text = "invalid file descriptor"; break;
    case EAF_ERR_WRITE: text = "write failed"; break;
    case EAF_ERR_AWRITE: text = "asynchronous write failed"; break;
    case EAF_ERR_READ: text = "read failed"; break;
    case EAF_ERR_AREAD: text = "asynchronous read failed"; break;
    case EAF_ERR_WAIT: text = "wait failed"; break;
    case EAF_ERR_PROBE: text = "probe failed"; break;
    case EAF_ERR_UNLINK: text = "unlink failed"; break;
    case EAF_ERR_UNIMPLEMENTED: text = "unimplemented operation"; break;
    case EAF_ERR_STAT: text = "stat failed"; break;
    case EAF_ERR_TOO_SHORT: text = "an argument string/buffer is too short"; break;
    case EAF_ERR_TOO_LONG: text = "an argument string/buffer is too long"; break;
    case EAF_ERR_NONINTEGER_OFFSET: text = "offset is not an integer"; break;
    case EAF_ERR_TRUNCATE: text = "truncate failed"; break;
    case EAF_ERR_LENGTH: text = "length failed"; break;
  }
  std::strcpy(msg, text);
}

void EAF_Print_stats(int fd) {
  File* f = file(fd);
  if (!f) return;
  eaf_off_t len = -1;
  if (EAF_Length(fd, &len) != EAF_OK) len = -1;
  const Stats& s = f->stats;
  std::printf("\n------------------------------------------------------------\n");
  std::printf("EAF file %d: \"%s\" size=%.0f bytes\n", fd, f->name.c_str(), len);
  std::printf("------------------------------------------------------------\n");
  std::printf("               write      read    awrite     aread      wait\n");
  std::printf("     calls: %8ld  %8ld  %8ld  %8ld  %8ld\n", s.calls[0], s.calls[1], s.calls[2], s.calls[3], s.calls[4]);
  std::printf("   data(b): %.2e  %.2e  %.2e  %.2e\n", s.bytes[0], s.bytes[1], s.bytes[2], s.bytes[3]);
  std::printf("   time(s): %.2e  %.2e  %.2e  %.2e  %.2e\n", s.seconds[0], s.seconds[1], s.seconds[2], s.seconds[3],
              s.seconds[4]);
  std::printf("------------------------------------------------------------\n\n");
  std::fflush(stdout);
}

}  // extern "C"
