// File-system operations of arrays' I/O (one rank acts for the group; see files.hpp).
#include "io/files.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
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

// "user 'alice' (uid 1001)", or "uid 1001" for a uid without a name.
std::string describe_user(uid_t uid) {
  struct passwd pw{}, *found = nullptr;
  char buffer[1024];
  if (::getpwuid_r(uid, &pw, buffer, sizeof buffer, &found) == 0 && found)
    return "user '" + std::string(found->pw_name) + "' (uid " + std::to_string(uid) + ")";
  return "uid " + std::to_string(uid);
}

constexpr const char* kTemporaryMark = ".armada-tmp.";

// Eight letters or digits nobody can predict (getrandom; the clock and pid only if it fails).
std::string random_suffix() {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char bytes[8];
  if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    const auto seed = static_cast<unsigned long long>(::getpid()) * 2654435761ULL ^
                      static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    for (std::size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<unsigned char>(seed >> (8 * i));
  }
  std::string s;
  for (unsigned char b : bytes) s += kChars[b % (sizeof kChars - 1)];
  return s;
}

// Removes the temporary files of `file` a killed writer left (the user's own, unlocked) and
// fails if another process's save of `file` holds one. `mine` is skipped (compared by file
// name: the listing of "." spells the path "./name").
void clear_leftovers(const std::string& file, const std::string& mine, const char* op) {
  const std::string prefix = fs::path(file).filename().string() + kTemporaryMark;
  const fs::path my_name = fs::path(mine).filename();
  std::error_code ec;
  // increment(ec), not ++: a directory changing under the listing is no reason to fail a save.
  for (fs::directory_iterator it(directory_of(file), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string path = it->path().string();
    if (it->path().filename().string().compare(0, prefix.size(), prefix) != 0 || it->path().filename() == my_name)
      continue;
    if (!owned_regular_file(path)) continue;  // another user's: never opened, never removed
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat held{}, named{};
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      throw rma::SystemError(op, rma::error_message(op, "file '" + path + "' is held by another process " +
                                     "(another save of the same file is writing it)"));
    }
    if (::fstat(fd, &held) == 0 && ::lstat(path.c_str(), &named) == 0 && held.st_ino == named.st_ino) ::unlink(path.c_str());
    ::close(fd);
  }
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
  fd_ = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
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

void release_cached_pages(const std::string& file) {
  // O_NONBLOCK | O_NOFOLLOW: a fifo or a link planted at the name neither blocks nor is followed.
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;  // no file to replace (the first save), or one we may not read
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

void make_durable(const std::string& file, const char* op) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_os(op, file, "cannot be reopened to sync it", errno);
  const int synced = ::fsync(fd);
  const int sync_error = errno;
  ::close(fd);
  if (synced != 0) fail_os(op, file, "cannot be synced to disk", sync_error);
}

bool owned_regular_file(const std::string& file) {
  struct stat st{};
  return ::lstat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid();
}

void check_owned(const std::string& file, const char* use, const char* op) {
  struct stat st{};
  if (::lstat(file.c_str(), &st) != 0) fail_os(op, file, "cannot be inspected", errno);
  std::string why;
  if (!S_ISREG(st.st_mode))
    why = S_ISLNK(st.st_mode) ? "is a symbolic link" : "is not a regular file";
  else if (st.st_uid != ::geteuid())
    why = "belongs to " + describe_user(st.st_uid) + ", not to this job's " + describe_user(::geteuid());
  if (!why.empty())
    throw rma::SystemError(op, rma::error_message(op, "file '" + file + "' " + why + ": it is not " + use));
}

void check_same_file(const std::string& name, const FileIdentity& identity, const char* op) {
  const int fd = ::open(name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail_os(op, name, "cannot be opened (the temporary file group rank 0 created)", errno);
  struct stat st{};
  const bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_ino == identity.inode &&
                    st.st_uid == identity.uid;
  ::close(fd);
  if (!same)
    throw rma::SystemError(op, rma::error_message(op, "file '" + name + "' is not the temporary file group rank 0 " +
                                   "created (replaced by another process?): nothing is written to it"));
}

TemporaryFile::TemporaryFile(const std::string& file, const char* op) {
  for (int attempt = 0; fd_ < 0; ++attempt) {
    name_ = file + kTemporaryMark + random_suffix();
    // O_EXCL | O_NOFOLLOW: a name someone planted (a file, a symlink) fails instead of being used.
    fd_ = ::open(name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0 && (errno != EEXIST || attempt == 16)) fail_os(op, name_, "cannot be created", errno);
  }
  try {
    struct stat st{};
    if (::fstat(fd_, &st) != 0) fail_os(op, name_, "cannot be inspected", errno);
    identity_ = {static_cast<unsigned long long>(st.st_ino), static_cast<unsigned long long>(st.st_uid)};
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) fail_os(op, name_, "cannot be locked", errno);
    clear_leftovers(file, name_, op);
  } catch (...) {
    remove();
    ::close(fd_);  // no destructor runs for a constructor that throws
    throw;
  }
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

bool TemporaryFile::name_leads_here() const {
  struct stat st{};
  return ::lstat(name_.c_str(), &st) == 0 && st.st_ino == identity_.inode && S_ISREG(st.st_mode);
}

void TemporaryFile::reserve(std::size_t bytes, const char* op) {
  const int error = ::fallocate(fd_, 0, 0, static_cast<off_t>(bytes)) == 0 ? 0 : errno;
  if (error != 0 && error != EOPNOTSUPP && error != ENOSYS)
    fail_os(op, name_, "cannot get its " + std::to_string(bytes) + " bytes on disk", error);
}

void TemporaryFile::commit(const std::string& file, const char* op) {
  if (!name_leads_here())
    throw rma::SystemError(op, rma::error_message(op, "file '" + name_ + "' is no longer the temporary file this save " +
                                   "wrote (replaced by another process?): '" + file + "' is left as it was"));
  if (::fsync(fd_) != 0) fail_os(op, name_, "cannot be synced to disk", errno);
  if (::rename(name_.c_str(), file.c_str()) != 0) fail_os(op, file, "cannot be replaced by " + name_, errno);
  name_.clear();  // renamed: nothing of this save's is left to remove
  const int dir = ::open(directory_of(file).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);  // best effort: some file systems refuse fsync on directories
    ::close(dir);
  }
}

void TemporaryFile::remove() noexcept {
  if (!name_.empty() && fd_ >= 0 && name_leads_here()) ::unlink(name_.c_str());
  name_.clear();
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
    // Exactly "<stem><digits>.h5": temporary files ("....h5.armada-tmp.<random>") never match.
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
