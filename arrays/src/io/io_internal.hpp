// What the I/O sources share: argument agreement, reading a file's metadata on one rank, and
// the collective block reads and writes (save_load.cpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "armada/arrays/io.hpp"
#include "internal.hpp"
#include "io/files.hpp"

namespace armada::arrays::io {

/// Fails (InvalidArgument, on every member) unless every member of `group` passes the same `value`.
void check_same_everywhere(const char* op, const char* argument, const std::string& value, const rma::Group& group);

/// "'file', 'name', [lo] .. [hi]": the arguments of a load, for check_same_everywhere.
std::string quoted_arguments(const std::string& file, const std::string& name, const Coord& lo, const Coord& hi);

/// The checked arrays of a collective call: live, on one group this rank belongs to, with names
/// that can name datasets (distinct when `unique_names`), and the same on every member.
std::vector<const Array::Impl*> checked_set(const char* op, std::span<const Array> arrays, bool unique_names);

/// What datasets `names` (null: every dataset) of `file` hold, found by group rank 0 (which
/// also checks the file and takes a shared lock on it, kept in `lock` until the caller is done)
/// and sent to every member. Collective; errors are agreed.
std::vector<DatasetInfo> inspect_on_root(const char* op, const std::string& file, const std::vector<std::string>* names,
                                         const rma::Group& group, std::optional<FileLock>& lock);

/// Fails unless `info` (or its patch of `extents`) can be loaded into `a`: same type and extents.
void check_matches(const char* op, const DatasetInfo& info, const std::string& file, const Coord& extents,
                   const Array::Impl& a);

/// Reads dataset names[i] at offsets[i] into every member's block of into[i] (all on one group,
/// checked). Collective.
void read_datasets(const char* op, const std::string& file, const std::vector<std::string>& names,
                   const std::vector<Coord>& offsets, const std::vector<const Array::Impl*>& into);

/// Writes `arrays` (checked) to `file` under its temporary name, then renames it; or, with
/// SaveMode::in_place and a file that suits, into the file itself. Collective.
void save_set(const char* op, const std::string& file, std::span<const Array> arrays,
              const std::vector<const Array::Impl*>& impls, SaveMode mode = SaveMode::replace);

}  // namespace armada::arrays::io
