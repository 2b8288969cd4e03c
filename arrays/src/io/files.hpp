// The POSIX side of arrays' I/O, done by one rank for the group: existence and access checks,
// HDF5-compatible file locks, free space, durable replacement of a file, checkpoint names.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace armada::arrays::io {

/// Fails (rma::SystemError naming `op`) unless `file` is an existing regular file we may read.
void check_readable(const std::string& file, const char* op);

/// A non-blocking flock(2) on a file, the lock HDF5 itself takes (shared to read, exclusive to
/// write), so that a file another process holds open through HDF5 is reported instead of being
/// read while it changes or replaced under its writer. Released on destruction.
class FileLock {
 public:
  enum class Mode {
    read,     ///< shared; the file must exist
    replace,  ///< exclusive if the file exists (nothing to lock otherwise)
  };
  /// Fails naming `op` if another process holds a conflicting lock.
  FileLock(const std::string& file, Mode mode, const char* op);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

/// Fails unless the file system holding `file` has room for `bytes` more bytes.
void check_free_space(const std::string& file, std::size_t bytes, const char* op);

/// Drops the cached pages of `file` (the file a save is about to replace) from the page cache,
/// if it exists: its clean pages go back to the kernel before the new file needs as many. On a
/// virtual machine a page the guest already used costs little to reuse, while a page it never
/// touched costs a host fault: a save that writes 1 GiB beside the 1 GiB it replaces ran at a
/// fifth of the speed of one finding freed pages (docs/io.md). Only clean pages go (a saved
/// file was synced), so nothing is written and nothing is lost; errors are ignored.
void release_cached_pages(const std::string& file);

/// Makes `file`'s data durable (fsync).
void make_durable(const std::string& file, const char* op);

/// What names a file whatever its name: other ranks check that the temporary name still leads
/// to the file rank 0 created (the same inode, owned by this process's user).
struct FileIdentity {
  unsigned long long inode = 0;
  unsigned long long uid = 0;
};

/// The file a save writes before it is complete: "<file>.armada-tmp.<random>", created by group
/// rank 0 alone (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0644 less the umask), so a name planted
/// in a directory others can write (a symlink, another user's file) is never opened, and the
/// finished file is the job's own. It stays locked (flock) while it exists, which tells other
/// saves of `file` that it is being written; leftovers of a killed writer of `file` (unlocked,
/// the job user's own) are removed. Nothing is removed on destruction: remove() or commit().
class TemporaryFile {
 public:
  /// Fails naming `op` if another process's save of `file` holds its temporary file.
  TemporaryFile(const std::string& file, const char* op);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::string& name() const { return name_; }
  FileIdentity identity() const { return identity_; }
  /// Allocates its first `bytes` bytes on disk (fallocate), so that later writes inside them
  /// cannot run out of space. Fails with the file system's reason (no space, file size limit);
  /// a file system that cannot preallocate is not an error.
  void reserve(std::size_t bytes, const char* op);
  /// Checks that its name still leads to it, makes it durable (fsync), renames it to `file`
  /// (atomically replacing it) and makes the rename durable (fsync of the directory).
  void commit(const std::string& file, const char* op);
  /// Removes it if its name still leads to it (errors ignored: used while failing already).
  void remove() noexcept;

 private:
  bool name_leads_here() const;
  std::string name_;
  FileIdentity identity_;
  int fd_ = -1;
};

/// Fails naming `op` unless `name` is, without following a link, a regular file with the
/// identity rank 0 created (the check the other members of a save make before HDF5 opens it).
void check_same_file(const std::string& name, const FileIdentity& identity, const char* op);

/// Fails naming `op` unless `file` is, without following a link, a regular file owned by this
/// process's user; `use` says what was refused ("taken by restart").
void check_owned(const std::string& file, const char* use, const char* op);

/// True if `file` is, without following a link, a regular file owned by this process's user.
bool owned_regular_file(const std::string& file);

/// Removes `file` if it exists (errors ignored: used while failing already).
void remove_quietly(const std::string& file);

/// "<prefix>.<step>.h5".
std::string checkpoint_name(const std::string& prefix, long step);
/// The steps of the complete checkpoints of `prefix`, ascending (a missing directory: none).
std::vector<long> checkpoint_steps(const std::string& prefix, const char* op);

}  // namespace armada::arrays::io
