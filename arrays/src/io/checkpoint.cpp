// checkpoint / restart: a set of arrays saved as one file per step, complete or absent.
//
// A checkpoint is a save (written under a temporary name, synced, renamed), so every
// "<prefix>.<step>.h5" that exists is complete: a writer killed mid-way leaves only its
// temporary file, which restart never looks at and the next save of that step removes.
#include <vector>

#include "armada/arrays/io.hpp"
#include "armada/rma/collectives.hpp"
#include "io/files.hpp"
#include "io/io_internal.hpp"

namespace armada::arrays {

namespace {

// The newest step of `prefix` found by group rank 0, or -1, sent to every member. A newest
// checkpoint the job's user does not own (planted by another user of a shared directory) or that
// is a link is an error, not skipped: the run would silently go back to an older step.
long newest_step(const char* op, const std::string& prefix, const rma::Group& group) {
  long step = -1;
  rma::agree(op, [&] {
    if (group.rank() != 0) return;
    const auto steps = io::checkpoint_steps(prefix, op);
    if (steps.empty()) return;
    io::check_owned(io::checkpoint_name(prefix, steps.back()), "taken as a checkpoint", op);
    step = steps.back();
  }, group);
  rma::broadcast(&step, sizeof step, 0, group);
  return step;
}

}  // namespace

void checkpoint(const std::string& prefix, long step, std::span<const Array> arrays, int keep) {
  constexpr const char* op = "arrays::checkpoint";
  const auto impls = io::checked_set(op, arrays, true);
  const rma::Group& group = impls.front()->group;
  io::check_same_everywhere(op, "prefix, step and keep",
                            "'" + prefix + "', " + std::to_string(step) + ", " + std::to_string(keep), group);
  rma::agree(op, [&] {
    if (prefix.empty()) throw rma::InvalidArgument(op, "prefix", "''", "a file name prefix is needed");
    if (step < 0) throw rma::InvalidArgument(op, "step", std::to_string(step), "must be >= 0");
    if (keep < 1) throw rma::InvalidArgument(op, "keep", std::to_string(keep), "must be >= 1 (the checkpoint just written)");
  }, group);
  io::save_set(op, io::checkpoint_name(prefix, step), arrays, impls);
  // Older checkpoints go only once the new one is complete: of the steps below this one, the
  // keep - 1 newest stay. Higher steps (another run's) are not this call's to remove.
  rma::agree(op, [&] {
    if (group.rank() != 0) return;
    std::vector<long> older;
    for (long s : io::checkpoint_steps(prefix, op))
      if (s < step) older.push_back(s);
    const auto stay = static_cast<std::size_t>(keep - 1);
    for (std::size_t i = 0; i + stay < older.size(); ++i) {
      const std::string old = io::checkpoint_name(prefix, older[i]);
      if (io::owned_regular_file(old)) io::remove_quietly(old);  // another user's files are not ours to remove
    }
  }, group);
}

std::optional<long> latest_checkpoint(const std::string& prefix, const rma::Group& group) {
  constexpr const char* op = "arrays::latest_checkpoint";
  if (!group.is_member()) throw rma::InvalidArgument(op, "group", "size " + std::to_string(group.size()), "this rank is not a member");
  io::check_same_everywhere(op, "prefix", prefix, group);
  const long step = newest_step(op, prefix, group);
  return step < 0 ? std::nullopt : std::optional<long>(step);
}

std::optional<long> restart(const std::string& prefix, std::span<Array> arrays) {
  constexpr const char* op = "arrays::restart";
  const auto impls = io::checked_set(op, std::span<const Array>(arrays.data(), arrays.size()), true);
  const rma::Group& group = impls.front()->group;
  io::check_same_everywhere(op, "prefix", prefix, group);
  const long step = newest_step(op, prefix, group);
  if (step < 0) return std::nullopt;
  const std::string file = io::checkpoint_name(prefix, step);
  std::vector<std::string> names;
  for (const Array::Impl* a : impls) names.push_back(a->name);
  // Every array is checked against the file before any is overwritten.
  std::optional<io::FileLock> lock;
  const auto infos = io::inspect_on_root(op, file, &names, group, lock);
  rma::agree(op, [&] {
    for (std::size_t i = 0; i < impls.size(); ++i) io::check_matches(op, infos[i], file, infos[i].dims, *impls[i]);
  }, group);
  std::vector<Coord> origins;
  for (const Array::Impl* a : impls) origins.push_back(Coord::filled(a->ndim(), 0));
  io::read_datasets(op, file, names, origins, impls);
  arrays.front().sync_group();
  return step;
}

}  // namespace armada::arrays
