// Parallel HDF5 I/O of arrays: save, load (whole or a patch, on any rank count and distribution),
// checkpoint and restart. File format and rules: docs/io.md.
//
// Who takes part: every function is collective over the arrays' group (save, checkpoint,
// restart, load into an existing array) or over options.group (load into a new array; default
// the world). Every member passes the same file, names and patches.
// Completion: save and checkpoint return once the file is complete on disk (flushed, synced and
// renamed into place); load returns once every member's block holds the data (the call ends
// with a sync_group()).
// Files: one HDF5 file, one dataset per array (named after the array), written by collective
// MPI-IO hyperslab writes of each rank's block (ghost cells are never written). A file is
// written under a temporary name and renamed: it is complete or absent, never half-written,
// and an existing file of the same name stays intact until the new one replaces it.
// Errors: a missing, unreadable, non-HDF5, truncated or corrupt file, a dataset of another
// shape or type, a full disk, a file another process holds (HDF5 file locking): the call throws
// on every member (rma::InvalidArgument for bad arguments, rma::SystemError for the file
// system or HDF5, naming the operation, the file and the cause), and nothing is left written.
// HDF5's own error printing is silenced during the calls. Built without parallel HDF5, every
// function throws rma::Unsupported (io_available() tells beforehand).
// Thread safety: none; one call at a time per process.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "armada/arrays/global_array.hpp"

namespace armada::arrays {

/// True if Armada was built with parallel HDF5 (otherwise every function below throws
/// rma::Unsupported).
bool io_available() noexcept;

/// How save writes over an existing file.
enum class SaveMode {
  /// A new file beside the old one, renamed over it once complete: the old file stays intact
  /// until the new one replaces it (the default).
  replace,
  /// When the file holds exactly the arrays' datasets (the same names, element types,
  /// dimensions, contiguous storage), their data and attributes are rewritten where they lie:
  /// no new blocks for the file system to allocate, but a job killed meanwhile leaves a file
  /// mixing old and new data. Any other file (or none) is written as with replace.
  in_place,
};

/// Writes `arrays` (all on one group, distinct names) to HDF5 file `file`, one dataset per array
/// named Array::name(), replacing the file if it exists (see SaveMode). Collective over the
/// arrays' group.
void save(const std::string& file, std::span<const Array> arrays, SaveMode mode = SaveMode::replace);
inline void save(const std::string& file, std::initializer_list<Array> arrays, SaveMode mode = SaveMode::replace) {
  save(file, std::span<const Array>(arrays.begin(), arrays.size()), mode);
}

/// What the datasets of a file's root group hold (read without loading the data); datasets no
/// array can hold (strings, other compounds, more than 7 dimensions) are left out. Collective
/// over `group`.
struct DatasetInfo {
  std::string name;
  ElemType type{};
  Coord dims;
  Coord ghosts;                                     ///< ghost widths it was written with
  std::vector<std::vector<Index>> block_starts;     ///< the distribution it was written with
  int group_size = 0;                               ///< the group size it was written with
  std::string armada_version;                       ///< empty for a dataset Armada did not write
};
std::vector<DatasetInfo> list(const std::string& file, const rma::Group& group = rma::Group::world());

/// A new array holding dataset `name` of `file`: its element type and dimensions come from the
/// dataset, the distribution and group from `options` (default: regular on the world; ghost
/// widths default to those it was saved with; its name to `name`). Collective over the group.
Array load(const std::string& file, const std::string& name, const ArrayOptions& options = {});
/// Loads dataset `name` into existing array `into` (the same dimensions and element type).
/// Collective over into's group.
void load(const std::string& file, const std::string& name, Array& into);

/// Patch [lo, hi) of dataset `name` as a new array of dimensions hi - lo.
Array load_patch(const std::string& file, const std::string& name, const Coord& lo, const Coord& hi,
                 const ArrayOptions& options = {});
/// Patch [lo, hi) of dataset `name` into existing array `into` of dimensions hi - lo.
void load_patch(const std::string& file, const std::string& name, const Coord& lo, const Coord& hi, Array& into);

template <Element T>
GlobalArray<T> load_as(const std::string& file, const std::string& name, const ArrayOptions& options = {}) {
  return GlobalArray<T>(load(file, name, options));
}

// ---- checkpoint / restart ------------------------------------------------------------------------
/// Writes checkpoint `step` (>= 0) of `arrays` as file "<prefix>.<step>.h5" (prefix may contain
/// a directory), complete or absent; then removes the checkpoints of `prefix` of lower steps but
/// the keep - 1 newest of them (keep >= 1; higher steps are left alone). Collective over the
/// arrays' group.
void checkpoint(const std::string& prefix, long step, std::span<const Array> arrays, int keep = 2);
inline void checkpoint(const std::string& prefix, long step, std::initializer_list<Array> arrays, int keep = 2) {
  checkpoint(prefix, step, std::span<const Array>(arrays.begin(), arrays.size()), keep);
}

/// The newest complete checkpoint of `prefix`: loads each of `arrays` from its dataset of the same
/// name (matching dimensions and types) and returns its step, or returns nothing (arrays
/// untouched) when there is no checkpoint. A checkpoint that cannot be read (corrupt, or
/// lacking one of the arrays) is an error, not skipped. Collective over the arrays' group.
std::optional<long> restart(const std::string& prefix, std::span<Array> arrays);
inline std::optional<long> restart(const std::string& prefix, std::initializer_list<Array> arrays) {
  std::vector<Array> v(arrays);
  return restart(prefix, std::span<Array>(v));
}
/// The step of the newest complete checkpoint of `prefix`, if any. Collective over `group`.
std::optional<long> latest_checkpoint(const std::string& prefix, const rma::Group& group = rma::Group::world());

}  // namespace armada::arrays
