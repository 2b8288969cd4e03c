// The families by name, with the number of progress steps each shows (the run's total is their
// sum over the transports, so the progress line can say "step k of n" and estimate the rest).
#include <stdexcept>

#include "suite/families/common.hpp"

namespace armada::bench::suite {

namespace {

std::size_t one(const Options&, int) { return 1; }

const Family kAll[] = {
    {"contig", family_contig, [](const Options& o, int) { return o.sizes.size() + 1; }},  // + the get after idle
    {"strided", family_strided, [](const Options& o, int) { return 2 * o.nsegs.size(); }},
    {"overlap", family_overlap, [](const Options&, int) -> std::size_t { return 3; }},  // idle, target busy, MPI
    {"aggregate", family_aggregate, one},
    {"atomic", family_atomic, one},
    {"fence", family_fence, [](const Options&, int nranks) { return fence_targets(nranks).size(); }},
    {"cold", family_cold, [](const Options&, int) -> std::size_t { return 5; }},
    {"memory", family_memory, one},
    {"ucx", family_ucx, one},
};

}  // namespace

const Family& family(const std::string& name) {
  for (const Family& f : kAll)
    if (name == f.name) return f;
  throw std::logic_error("armada-bench: no family '" + name + "' (options.hpp kFamilies and families/registry.cpp differ)");
}

}  // namespace armada::bench::suite
