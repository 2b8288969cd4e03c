// MG's level arrays and how their data moves: ghost exchange, and the two transitions between
// the distributed levels and the levels gathered on rank 0 (grid.hpp).
//
// Two implementations of the same three operations (Exchange), chosen by --comm:
//  - rma: Armada's arrays layer, one-sided. A ghost exchange is arrays' push update
//    (GhostUpdate::push): each rank puts every face, edge and corner of its block that a
//    neighbour's frame takes straight into that frame, one rma::put_strided_notify per region
//    (data and an arrival count in one message where the transport allows), once the neighbour
//    has said, entering the same exchange, that its frame is free; then it waits for its own
//    frame's arrivals. No synchronization of all ranks, no get round trip. The level transitions
//    (gather, replicate) read other ranks' blocks with gets after a synchronization; a block
//    that others may still be reading that way (exposed since the last synchronization) is
//    guarded on the writer's side: prepare_write() synchronizes first. In MG's V-cycle that
//    never happens (the transitions' readers are done before the next kernel writes).
//  - mpi: the baseline. The same 26 regions as MPI_Irecv/MPI_Isend messages to and from the
//    neighbours, packed and unpacked, then MPI_Waitall; transitions use MPI_Gatherv and
//    MPI_Bcast.
// MPI: regions whose owner is this rank itself (a dimension with one rank: the periodic wrap
// stays local) are copied in place. So are the edges and corners that reach across a dimension
// with one rank and one with several: their cells are the wrap, within this rank's frame, of cells
// a face (or edge) region brings, so they are copied from it after it arrived instead of moved
// again (at 2 ranks 2 messages per exchange instead of 18). The rma push moves every region
// itself (the rank's own wrap as puts to itself): one mechanism, arrays' own.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "armada/arrays/global_array.hpp"
#include "grid.hpp"
#include "kernels.hpp"

namespace armada::mg {

/// One level array: a 3-D GlobalArray<double> with ghost width 1 on a level's layout, and this
/// rank's block of it in place (accessed for the array's whole life).
struct LevelArray {
  arrays::GlobalArray<double> array;
  Frame frame;                      ///< empty on ranks that own nothing
  Dim3<Index> lo{}, hi{};           ///< this rank's block [lo, hi), global indices
  std::uint64_t exposed = 0;        ///< rma: the epoch in which other ranks last read the block (gather, replicate)

  /// Collective over all ranks.
  static LevelArray create(const LevelLayout& layout, const std::string& name);
  /// Collective. Ends the local access and frees the array.
  void destroy();
};

/// One of the 26 ghost regions of a block, in the direction `dir` (-1, 0, +1 per dimension).
struct HaloRegion {
  Dim3<int> dir{};
  int tag = 0;                      ///< 0..26, the message tag of this direction
  Dim3<Index> extent{};             ///< cells per dimension
  Dim3<Index> recv{};               ///< frame position of the ghost cells
  Dim3<Index> send{};               ///< frame position of the cells the neighbour at -dir needs
  Dim3<Index> src_lo{}, src_hi{};   ///< global indices of the ghost cells' data (wrapped)
  int from = 0;                     ///< owner of that data (the neighbour at +dir)
  int to = 0;                       ///< the neighbour at -dir (receives `send`)
  bool local = false;               ///< from == to == this rank: copied in place
  /// Some of dir's nonzero components are dimensions with one rank (the wrap is this rank's own)
  /// and some are not: the cells come with another region's (dir with those components zeroed)
  /// and are copied from its ghost cells at `derived_src` once it arrived, not sent.
  bool derived = false;
  Dim3<Index> derived_src{};
  std::size_t offset = 0, count = 0;///< MPI: receive at offset, send at offset + count
  /// Moved between ranks (neither copied from the interior nor derived).
  bool remote() const noexcept { return !local && !derived; }
};

/// The ghost regions of one rank's block of a level (shared by the level's arrays).
struct HaloPlan {
  std::vector<HaloRegion> regions;  ///< empty for ranks that own nothing
  bool local_only = true;           ///< the level has one block: no synchronization needed
  std::size_t buffer_doubles = 0;   ///< MPI packing space for all remote regions
  std::vector<double> buffer;       ///< MPI packing space (allocated by the MPI exchange)

  static HaloPlan make(const LevelLayout& layout, int rank);
};

/// Copies the regions of `plan` that this rank owns itself (the periodic wrap in dimensions with
/// one rank). With a plan for a single-block level this fills the whole ghost frame.
void copy_local_regions(const Frame& f, const HaloPlan& plan);
/// Copies the derived regions of `plan` from the remote regions' ghost cells (call once those
/// arrived).
void copy_derived_regions(const Frame& f, const HaloPlan& plan);

/// How level data moves between ranks (see the file comment).
class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual const char* name() const noexcept = 0;
  /// Call before writing `a` (its interior): waits, if needed, until no rank may still be
  /// reading it. Collective: every rank calls it at the same point (its decision is the same
  /// on every rank).
  virtual void prepare_write(LevelArray& a) = 0;
  /// How many synchronizations prepare_write() added so far.
  virtual long write_syncs() const noexcept = 0;
  /// Fills the ghost frame of `a` (periodic). Collective over all ranks.
  virtual void ghosts(LevelArray& a, HaloPlan& plan) = 0;
  /// `coarse` (gathered on rank 0) = `staging` (distributed, same dimensions), ghosts
  /// included. Collective.
  virtual void gather(LevelArray& staging, LevelArray& coarse, HaloPlan& coarse_plan) = 0;
  /// `replica` (a full copy with ghost frame on every rank) = `coarse` (gathered on rank 0).
  /// `whole` is the plan of a single block of that level. Collective.
  virtual void replicate(LevelArray& coarse, const Frame& replica, const HaloPlan& whole) = 0;
};

std::unique_ptr<Exchange> make_rma_exchange();
std::unique_ptr<Exchange> make_mpi_exchange(MPI_Comm comm);

}  // namespace armada::mg
