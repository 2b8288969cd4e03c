#include "transport/base/shm_region.hpp"

#include <fcntl.h>
#include <sys/mman.h>
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

#include "common/check.hpp"

namespace armada::rma::detail {

namespace {

// The object has no name: the creator makes it with memfd_create, and the other ranks of the
// node open it through /proc/<creator pid>/fd/<fd> (as the server transport's helper thread
// already does). So a job killed at any moment, even between creation and mapping, leaves
// nothing behind: the kernel frees the memory with the last descriptor or mapping.
int create_anonymous() { return memfd_create("armada", MFD_CLOEXEC); }

// memfd memory is not bounded by /dev/shm's size as named objects were: a huge request would
// make fallocate take all memory and wake the OOM killer. So the creator refuses what /dev/shm
// could not hold (the bound named objects had), or what exceeds memory and swap: an errno or 0.
int too_large(std::size_t bytes) {
  struct statvfs fs {};
  if (statvfs("/dev/shm", &fs) == 0 && bytes > static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize) return ENOSPC;
  struct sysinfo info {};
  if (sysinfo(&info) == 0 &&
      bytes > (static_cast<unsigned long long>(info.totalram) + info.totalswap) * info.mem_unit)
    return ENOMEM;
  return 0;
}

int open_from_creator(int pid, int fd) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
  return open(path, O_RDWR | O_CLOEXEC);
}

}  // namespace

ShmRegion ShmRegion::create(const char* op, MPI_Comm node_comm, std::size_t bytes, std::byte* at) {
  ShmRegion region;
  if (bytes == 0) return region;
  int node_rank = 0;
  MPI_Comm_rank(node_comm, &node_rank);

  // The creator sends its pid and descriptor, or an error number, to the others.
  struct Announce {
    int error;
    int pid;
    int fd;
  } msg{};
  int fd = -1;
  if (node_rank == 0) {
    msg.pid = static_cast<int>(getpid());
    msg.error = too_large(bytes);
    if (msg.error == 0) {
      fd = create_anonymous();
      if (fd < 0) {
        msg.error = errno;
      } else if (int e = posix_fallocate(fd, 0, static_cast<off_t>(bytes)); e != 0) {
        msg.error = e;
        close(fd);
        fd = -1;
      }
    }
    msg.fd = fd;
  }
  MPI_Bcast(&msg, sizeof msg, MPI_BYTE, 0, node_comm);
  if (msg.error != 0)
    throw_system(op, "cannot create " + std::to_string(bytes) + " bytes of shared memory", msg.error);

  if (node_rank != 0) fd = open_from_creator(msg.pid, msg.fd);
  int my_error = fd < 0 ? errno : 0;
  void* p = MAP_FAILED;
  if (fd >= 0) {
    p = mmap(at, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : 0), fd, 0);
    if (p == MAP_FAILED) my_error = errno;
    if (node_rank != 0) close(fd);
  }
  // The creator keeps its descriptor (and so the object) until everyone has mapped or failed.
  int any_error = 0;
  MPI_Allreduce(&my_error, &any_error, 1, MPI_INT, MPI_MAX, node_comm);
  if (any_error != 0) {
    if (p != MAP_FAILED || at) {  // a failed MAP_FIXED may have dropped the reservation: restore it
      region.data_ = at ? at : static_cast<std::byte*>(p);
      region.size_ = bytes;
      region.reserved_ = at != nullptr;
      region.unmap();
    }
    if (node_rank == 0 && fd >= 0) close(fd);
    throw_system(op, "cannot map " + std::to_string(bytes) + " bytes of shared memory", any_error);
  }
  region.data_ = static_cast<std::byte*>(p);
  region.size_ = bytes;
  region.creator_pid_ = msg.pid;
  region.creator_fd_ = msg.fd;
  region.reserved_ = at != nullptr;
  if (node_rank == 0) region.own_fd_ = fd;
  return region;
}

void ShmRegion::unmap() noexcept {
  if (!data_) return;
  // Inside a reservation: the reservation replaces the mapping in one step, so no other mmap
  // can land in the range before the arena takes it back.
  if (reserved_) mmap(data_, size_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  else munmap(data_, size_);
  data_ = nullptr;
}

ShmRegion::~ShmRegion() {
  unmap();
  if (own_fd_ >= 0) close(own_fd_);
}

ShmRegion::ShmRegion(ShmRegion&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      creator_pid_(std::exchange(other.creator_pid_, -1)),
      creator_fd_(std::exchange(other.creator_fd_, -1)),
      own_fd_(std::exchange(other.own_fd_, -1)),
      reserved_(std::exchange(other.reserved_, false)) {}

ShmRegion& ShmRegion::operator=(ShmRegion&& other) noexcept {
  if (this != &other) {
    unmap();
    if (own_fd_ >= 0) close(own_fd_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    creator_pid_ = std::exchange(other.creator_pid_, -1);
    creator_fd_ = std::exchange(other.creator_fd_, -1);
    own_fd_ = std::exchange(other.own_fd_, -1);
    reserved_ = std::exchange(other.reserved_, false);
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
