// The replicated operand of a term (tasks.hpp): the whole tensor, fetched once per rank and
// run with blocking gets of the other ranks' parts (the rank's own part is read in place),
// arranged into the sector matrices the term multiplies with.
//
// This is a deliberate choice, that of production CCSD codes when the amplitudes fit in a
// node's memory: the amplitudes T (o²v², small next to the v⁴ integrals V) are replicated, the
// integrals are streamed. Its cost is paid inside the terms and reported: the fetch counts in
// the bytes fetched and the time of the first term that needs the tensor, the arrangement in
// the time of the term that needs it. Arrangements are shared by (tensor, permutation): the
// pp- and hh-ladder use T in the same one, the ring term its own. The memory is allocated
// (and touched) when the Replicas are made, before the terms run, as the tensors are.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "store.hpp"
#include "tasks.hpp"

namespace armada::apps::ccsd {

/// One row-major matrix per sector (irrep).
using SectorMatrices = std::vector<std::vector<double>>;

class Replicas {
 public:
  /// Allocates the copies and sector matrices that `plans` need.
  Replicas(const Tensors& tensors, const TermPlans& plans);
  /// The sector matrices of `plan`'s replicated operand: P_g x K_g when A is replicated,
  /// K_g x Q_g when B is. Fetches the parts of the tensor this rank cannot read in place
  /// (TileStore::in_place: its own, and its node's ranks' where the store maps them) on its
  /// first use, adding their bytes to `fetched` and the others' to `in_place`, and arranges it
  /// on the arrangement's first use. Not collective.
  const SectorMatrices& sectors(TileStore& store, const TermPlan& plan, double& fetched, double& in_place);

 private:
  struct Whole {
    std::vector<double> data;
    bool fetched = false;
  };
  struct Arranged {
    SectorMatrices matrices;
    bool filled = false;
  };
  const Tensors& tensors_;
  std::map<TensorId, Whole> whole_;
  std::map<std::pair<TensorId, Perm>, Arranged> arranged_;
};

}  // namespace armada::apps::ccsd
