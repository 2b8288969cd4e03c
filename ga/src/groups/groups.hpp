// GA's process-group handles: the table of rma groups they name, and the default group.
#pragma once

#include "armada/rma/group.hpp"
#include "base/call.hpp"

namespace armada::ga {

inline constexpr int world_pgroup = -1;
/// The group of GA group handle `handle` (world_pgroup: the world).
rma::Group group(const char* function, int handle);
int add_group(rma::Group g);
void forget_group(const char* function, int handle);
/// The default group's handle and group.
int default_pgroup();
void set_default_pgroup(int handle);
rma::Group default_group();
/// The handle of `g` (an existing one, or a new one).
int handle_of(const rma::Group& g);
/// Every process's group of itself alone, made together at GA_Initialize (GA_Pgroup_self is
/// called alone), and its handle.
void make_self_pgroup();
int self_pgroup();
/// GA_Sync / GA_Pgroup_sync: completes this rank's operations, then a barrier of `g` that tells a
/// member in another collective call.
void sync_group(const rma::Group& g);
/// Forgets every group handle and the default (GA_Terminate).
void forget_all_groups();

}  // namespace armada::ga
