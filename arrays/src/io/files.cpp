// File-system operations of arrays' I/O (one rank acts for the group; see files.hpp).
#include "io/files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "armada/rma/error.hpp"
#include "internal.hpp"

namespace armada::arrays::io {

namespace fs = std::filesystem;

namespace {
[[noreturn]] void fail_os(const char* op, const std::string& file, const std::string& what, int error) {
  throw rma::SystemError(op, rma::error_message(op, "file '" + file + "': " + what + " (" +
                                 std::strerror(error) + ")"));
}

std::string directory_of(const std::string& file) {
  const fs::path parent = fs::path(file).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}
}  // namespace

void check_readable(const std::string& file, const char* op) {
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0) fail_os(op, file, "cannot be opened", errno);
  if (!S_ISREG(st.st_mode))
    throw rma::SystemError(op, rma::error_message(op, "file '" + file + "' is not a regular file"));
  if (::access(file.c_str(), R_OK) != 0) fail_os(op, file, "cannot be read", errno);
}

FileLock::FileLock(const std::string& file, Mode mode, const char* op) {
  const bool exclusive = mode != Mode::read;
  fd_ = ::open(file.c_str(), (mode == Mode::create ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    if (mode == Mode::replace && errno == ENOENT) return;  // nothing to replace, nobody to disturb
    fail_os(op, file, "cannot be opened", errno);
  }
  if (::flock(fd_, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK) fail_os(op, file, "cannot be locked", error);
    static constexpr const char* kWhy[] = {
        "open for writing through HDF5; it cannot be read now",
        "open through HDF5; it cannot be replaced now",
        "another save of the same file is writing it",
    };
    throw rma::SystemError(op, rma::error_message(op, "file '" + file + "' is held by another process (" +
                                   kWhy[static_cast<int>(mode)] + ")"));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

void check_free_space(const std::string& file, std::size_t bytes, const char* op) {
  const std::string dir = directory_of(file);
  struct statvfs st{};
  if (::statvfs(dir.c_str(), &st) != 0) fail_os(op, dir, "cannot inspect the directory", errno);
  const auto available = static_cast<std::size_t>(st.f_bavail) * static_cast<std::size_t>(st.f_frsize);
  if (available < bytes)
    throw rma::SystemError(op, rma::error_message(op, "file '" + file + "' needs about " + std::to_string(bytes) +
                                   " bytes but its file system has " + std::to_string(available) +
                                   " bytes free (" + std::strerror(ENOSPC) + ")"));
}

void reserve(const std::string& file, std::size_t bytes, const char* op) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail_os(op, file, "cannot be opened to reserve its space", errno);
  const int status = ::fallocate(fd, 0, 0, static_cast<off_t>(bytes));
  const int error = errno;
  ::close(fd);
  if (status != 0 && error != EOPNOTSUPP && error != ENOSYS)
    fail_os(op, file, "cannot get its " + std::to_string(bytes) + " bytes on disk", error);
}

void release_cached_pages(const std::string& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;  // no file to replace (the first save), or one we may not read
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

std::string temporary_name(const std::string& file) { return file + ".armada-tmp"; }

void make_durable(const std::string& file, const char* op) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_os(op, file, "cannot be reopened to sync it", errno);
  const int synced = ::fsync(fd);
  const int sync_error = errno;
  ::close(fd);
  if (synced != 0) fail_os(op, file, "cannot be synced to disk", sync_error);
}

void commit(const std::string& temporary, const std::string& file, const char* op) {
  make_durable(temporary, op);
  if (::rename(temporary.c_str(), file.c_str()) != 0) fail_os(op, file, "cannot be replaced by " + temporary, errno);
  const int dir = ::open(directory_of(file).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);  // best effort: some file systems refuse fsync on directories
    ::close(dir);
  }
}

void remove_quietly(const std::string& file) { ::unlink(file.c_str()); }

std::string checkpoint_name(const std::string& prefix, long step) { return prefix + "." + std::to_string(step) + ".h5"; }

std::vector<long> checkpoint_steps(const std::string& prefix, const char* op) {
  const fs::path p(prefix);
  const std::string dir = directory_of(prefix);
  const std::string stem = p.filename().string() + ".";
  std::vector<long> steps;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec == std::errc::no_such_file_or_directory) return steps;
  if (ec) throw rma::SystemError(op, rma::error_message(op, "directory '" + dir + "' cannot be listed (" + ec.message() + ")"));
  for (const auto& entry : it) {
    const std::string name = entry.path().filename().string();
    // Exactly "<stem><digits>.h5": temporary files ("....h5.armada-tmp") never match.
    if (name.size() <= stem.size() + 3 || name.compare(0, stem.size(), stem) != 0 ||
        name.compare(name.size() - 3, 3, ".h5") != 0)
      continue;
    const std::string digits = name.substr(stem.size(), name.size() - stem.size() - 3);
    if (digits.empty() || digits.size() > 18 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
    steps.push_back(std::stol(digits));
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

}  // namespace armada::arrays::io
