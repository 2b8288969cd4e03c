// The replicated operand of a term (tasks.hpp): T, arranged into the sector matrices the term
// multiplies with.
//
// This is a deliberate choice, that of production CCSD codes when the amplitudes fit in a
// node's memory: the amplitudes T (o²v², small next to the v⁴ integrals V) are replicated, the
// integrals are streamed. Its cost is paid inside the terms and reported: what is fetched
// counts in the bytes fetched and the time of the term that needs it, the arrangement in the
// time of that term. Arrangements are shared by (tensor, permutation): the pp- and hh-ladder
// use T in the same one, the ring term its own.
//
// Where the store maps the memory of a node's ranks (armada: TileStore::node_copy), each node
// holds one copy of an arrangement, its sector matrices spread over the node's ranks: a rank
// arranges only the sectors it holds (reading the T blocks they need in place, or fetching
// them), and after a sync multiplies with every sector in place. A node of P ranks arranges
// once, in parallel, and keeps 1/P of the memory per rank. Elsewhere (Global Arrays) every rank
// fetches all of T once (the parts it cannot read in place) and arranges every sector itself.
// The memory is allocated (and touched) when the Replicas are made, before the terms run, as
// the tensors are.
#pragma once

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "store.hpp"
#include "tasks.hpp"

namespace armada::apps::ccsd {

/// One row-major matrix per sector (irrep), in place.
using SectorMatrices = std::vector<const double*>;

class Replicas {
 public:
  /// Allocates the copies and sector matrices that `plans` need. Collective (node copies).
  Replicas(TileStore& store, const Tensors& tensors, const TermPlans& plans);
  /// The sector matrices of `plan`'s replicated operand: P_g x K_g when A is replicated,
  /// K_g x Q_g when B is. Arranges them on the arrangement's first use, reading T in place
  /// where the store maps it (TileStore::in_place) and fetching the rest, adding those bytes to
  /// `fetched` and `in_place`. Collective on an arrangement's first use (every rank calls it at
  /// the start of every term).
  const SectorMatrices& sectors(TileStore& store, const TermPlan& plan, double& fetched, double& in_place);

 private:
  struct Arranged {
    std::unique_ptr<NodeCopy> shared;           ///< one per node, or null: `own` holds every sector
    std::vector<std::vector<double>> own;       ///< sectors this rank keeps itself
    SectorMatrices matrices;
    bool filled = false;
  };
  struct Whole {  ///< T fetched whole per rank (no node copy)
    std::vector<double> data;
    bool fetched = false;
  };
  void arrange_own(TileStore& store, const TermPlan& plan, Arranged& a, double& fetched, double& in_place);
  void arrange_shared(TileStore& store, const TermPlan& plan, Arranged& a, double& fetched, double& in_place);

  const Tensors& tensors_;
  std::map<TensorId, Whole> whole_;
  std::map<std::pair<TensorId, Perm>, Arranged> arranged_;
};

}  // namespace armada::apps::ccsd
