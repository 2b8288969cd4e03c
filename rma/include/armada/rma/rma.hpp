// armada::rma: the one-sided communication layer (ARMCI-equivalent). One include for all of it.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include "armada/rma/assert.hpp"
#include "armada/rma/atomic.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/config.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/global_ptr.hpp"
#include "armada/rma/group.hpp"
#include "armada/rma/handle.hpp"
#include "armada/rma/memory.hpp"
#include "armada/rma/mutex.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/rma/sync.hpp"
#include "armada/rma/transfer.hpp"
#include "armada/rma/types.hpp"
