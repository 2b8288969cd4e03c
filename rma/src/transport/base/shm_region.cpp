#include "transport/base/shm_region.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "core/check.hpp"

namespace armada::rma::detail {

namespace {

// Names are unpredictable, so that no other user of the machine can take them first and make
// every allocation fail (O_EXCL refuses a name that exists): the pid and 64 random bits, drawn
// again on the rare collision.
constexpr int kNameAttempts = 16;

std::uint64_t random_bits() {
  std::uint64_t r = 0;
  if (getrandom(&r, sizeof r, 0) != static_cast<ssize_t>(sizeof r)) {
    static std::atomic<std::uint64_t> fallback{0};  // no entropy: still distinct, less secret
    r = (static_cast<std::uint64_t>(getpid()) << 32) ^ fallback.fetch_add(0x9E3779B97F4A7C15ull) ^
        reinterpret_cast<std::uintptr_t>(&r);
  }
  return r;
}

/// Creates a new object under a fresh name (written to `name`); returns its fd or -1 (errno).
int create_unique(char (&name)[64], int pid) {
  for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
    std::snprintf(name, sizeof name, "/armada.%d.%016llx", pid, static_cast<unsigned long long>(random_bits()));
    const int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;  // errno is EEXIST
}

}  // namespace

ShmRegion ShmRegion::create(const char* op, MPI_Comm node_comm, std::size_t bytes) {
  ShmRegion region;
  if (bytes == 0) return region;
  int node_rank = 0;
  MPI_Comm_rank(node_comm, &node_rank);

  // The creator sends the name, or an error number, to the others.
  struct Announce {
    char name[64];
    int error;
    int pid;
    int fd;
  } msg{};
  int fd = -1;
  if (node_rank == 0) {
    msg.pid = static_cast<int>(getpid());
    fd = create_unique(msg.name, msg.pid);
    if (fd < 0) {
      msg.error = errno;
    } else if (int e = posix_fallocate(fd, 0, static_cast<off_t>(bytes)); e != 0) {
      msg.error = e;
      close(fd);
      fd = -1;
      shm_unlink(msg.name);
    }
    msg.fd = fd;
  }
  MPI_Bcast(&msg, sizeof msg, MPI_BYTE, 0, node_comm);
  if (msg.error != 0)
    throw_system(op, "cannot create " + std::to_string(bytes) + " bytes of shared memory in /dev/shm",
                 msg.error);

  if (node_rank != 0) fd = shm_open(msg.name, O_RDWR, 0600);
  int my_error = fd < 0 ? errno : 0;
  void* p = MAP_FAILED;
  if (fd >= 0) {
    p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) my_error = errno;
    if (node_rank != 0) close(fd);
  }
  // Everyone has mapped (or failed): the name is no longer needed.
  int any_error = 0;
  MPI_Allreduce(&my_error, &any_error, 1, MPI_INT, MPI_MAX, node_comm);
  if (node_rank == 0) shm_unlink(msg.name);
  if (any_error != 0) {
    if (p != MAP_FAILED) munmap(p, bytes);
    if (node_rank == 0 && fd >= 0) close(fd);
    throw_system(op, "cannot map " + std::to_string(bytes) + " bytes of shared memory", any_error);
  }
  region.data_ = static_cast<std::byte*>(p);
  region.size_ = bytes;
  region.creator_pid_ = msg.pid;
  region.creator_fd_ = msg.fd;
  if (node_rank == 0) region.own_fd_ = fd;
  return region;
}

ShmRegion::~ShmRegion() {
  if (data_) munmap(data_, size_);
  if (own_fd_ >= 0) close(own_fd_);
}

ShmRegion::ShmRegion(ShmRegion&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      creator_pid_(std::exchange(other.creator_pid_, -1)),
      creator_fd_(std::exchange(other.creator_fd_, -1)),
      own_fd_(std::exchange(other.own_fd_, -1)) {}

ShmRegion& ShmRegion::operator=(ShmRegion&& other) noexcept {
  if (this != &other) {
    if (data_) munmap(data_, size_);
    if (own_fd_ >= 0) close(own_fd_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    creator_pid_ = std::exchange(other.creator_pid_, -1);
    creator_fd_ = std::exchange(other.creator_fd_, -1);
    own_fd_ = std::exchange(other.own_fd_, -1);
  }
  return *this;
}

void check_host_memory(const char* op, const char* what, std::size_t bytes) {
  struct sysinfo info {};
  if (sysinfo(&info) != 0) return;
  const unsigned long long memory = (static_cast<unsigned long long>(info.totalram) + info.totalswap) * info.mem_unit;
  if (bytes > memory)
    throw_system(op, "cannot allocate " + std::to_string(bytes) + " bytes of " + what + " (this node has " +
                         std::to_string(memory) + " bytes of memory and swap)", ENOMEM);
}

void check_shm_space(const char* op, const char* what, std::size_t bytes) {
  struct statvfs fs {};
  if (statvfs("/dev/shm", &fs) != 0) return;
  const unsigned long long space = static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize;
  if (bytes > space)
    throw_system(op, "cannot allocate " + std::to_string(bytes) + " bytes of " + what + " (/dev/shm has " +
                         std::to_string(space) + " bytes free)", ENOSPC);
}

}  // namespace armada::rma::detail
