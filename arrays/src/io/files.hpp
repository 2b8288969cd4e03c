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
    create,   ///< exclusive, creating the file: a temporary file another save is writing
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

/// Allocates the first `bytes` bytes of existing file `file` on disk (fallocate), so that later
/// writes inside them cannot run out of space. Fails with the file system's reason (no space,
/// file size limit); a file system that cannot preallocate is not an error.
void reserve(const std::string& file, std::size_t bytes, const char* op);

/// Drops the cached pages of `file` (the file a save is about to replace) from the page cache,
/// if it exists: its clean pages go back to the kernel before the new file needs as many. On a
/// virtual machine a page the guest already used costs little to reuse, while a page it never
/// touched costs a host fault: a save that writes 1 GiB beside the 1 GiB it replaces ran at a
/// fifth of the speed of one finding freed pages (docs/io.md). Only clean pages go (a saved
/// file was synced), so nothing is written and nothing is lost; errors are ignored.
void release_cached_pages(const std::string& file);

/// The name a file is written under before it is complete ("<file>.armada-tmp").
std::string temporary_name(const std::string& file);

/// Makes `file`'s data durable (fsync).
void make_durable(const std::string& file, const char* op);

/// Makes `temporary` durable (fsync), renames it to `file` (atomically replacing it) and makes the
/// rename durable (fsync of the directory).
void commit(const std::string& temporary, const std::string& file, const char* op);

/// Removes `file` if it exists (errors ignored: used while failing already).
void remove_quietly(const std::string& file);

/// "<prefix>.<step>.h5".
std::string checkpoint_name(const std::string& prefix, long step);
/// The steps of the complete checkpoints of `prefix`, ascending (a missing directory: none).
std::vector<long> checkpoint_steps(const std::string& prefix, const char* op);

}  // namespace armada::arrays::io
