// How a transport plugs into the runtime: it registers one TransportEntry (name, settings rows,
// factory, thread-level rule, summary), and the object its factory returns implements the
// operations table and the segment hooks of transport/transport.hpp. The core never names a
// concrete transport; no transport includes another's files (shared pieces live in
// transport/base/, desc/ and common/).
//
// Registering is the folder's row, transport/<folder>/transport.cmake (its name, ORDER, entry
// symbol, sources, packages, capabilities, test configurations; cmake/ArmadaTransports.cmake):
// the build generates the list of entries (transports.cpp.in) from the rows. The list is explicit,
// so that no static constructor order or dropped object file can lose a transport.
#pragma once

#include <mpi.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "armada/rma/config.hpp"
#include "common/settings.hpp"
#include "common/topology.hpp"
#include "transport/transport.hpp"

namespace armada::rma::detail {

class NodeMemory;
class Registry;

/// What a starting transport gets: the world, the topology, the effective configuration, its own
/// settings struct, the segment registry (read only) and this node's memory primitives (stripe
/// locks, accumulate, atomics). Everything but `settings` outlives the transport.
struct TransportContext {
  MPI_Comm world;          // the runtime's duplicate of the user's world (duplicate it for traffic)
  int rank;
  int size;
  const Config& config;
  const Topology& topology;
  MPI_Comm node_comm;      // world ranks of this node
  const Registry& registry;
  NodeMemory& node_memory;
  /// The transport's settings struct (TransportEntry::new_settings), filled from its rows; valid
  /// during start (copy what you keep). Null for a transport without one.
  const void* settings = nullptr;

  /// The settings struct as the transport's own type S.
  template <class S>
  const S& settings_as() const noexcept {
    return *static_cast<const S*>(settings);
  }
};

enum class TransportRole {
  NodeMemory,  // carries on-node targets and plain put/get to mapped slices (exactly one: shm)
  InterNode,   // carries targets on other nodes; chosen with ARMADA_TRANSPORT=<name>
};

struct TransportEntry {
  const char* name;                     // "shm"; an InterNode one is an ARMADA_TRANSPORT value
  TransportRole role;
  const char* summary;                  // one line: armada-info's transport list
  std::span<const SettingRow> settings; // its rows of the settings table (common/settings.hpp)
  /// A new settings struct for its rows to fill (new_settings<S>); null: it reads none.
  std::shared_ptr<void> (*new_settings)() = nullptr;
  /// The prefix of environment variables it hands to its library, which are not Armada's
  /// settings (rdma: ARMADA_UCX_<NAME> for its UCX context), and what they do; null: none.
  const char* library_variables = nullptr;
  const char* library_variables_meaning = nullptr;
  /// Runs at init when MPI provides less than MPI_THREAD_MULTIPLE and this transport is
  /// configured. Returns the name of the transport to run instead, or null when it runs itself
  /// (after adjusting its settings' values in `config`), and appends to `lost` what the program
  /// loses (empty: nothing). Null: the transport runs at any thread level.
  const char* (*below_thread_multiple)(Config& config, std::string& lost) = nullptr;
  /// Sets MPI's own environment settings this transport needs, before MPI_Init (Open MPI reads
  /// its MCA parameters there); a value the user set wins. rma::init runs it when it starts MPI
  /// and ARMADA_TRANSPORT names this transport; rma::prepare_mpi_environment() runs every
  /// transport's. Null: nothing to do.
  void (*before_mpi_init)() = nullptr;
  /// ARMADA_TRANSPORT=auto tries the entries with a preference > 0, lowest first, and keeps the
  /// first that can start on every rank and suits the job (Transport::suits_as_default).
  int auto_preference = 0;
  /// For auto: its operations wait for a helper thread that polls (nothing it can sleep on until
  /// a request arrives), so on a host without an idle core each waits for the scheduler.
  bool needs_idle_core = false;
  /// For auto: why this transport cannot start in this process ("" if it can), from the effective
  /// configuration, checked before the collective start so that a missing library or interface
  /// fails nowhere. Null: it always can.
  std::string (*unavailable)(const Config& config) = nullptr;
  /// Starts the transport on this rank. Collective over the world: every rank starts the
  /// configured transports in the same order.
  std::unique_ptr<Transport> (*start)(const TransportContext& context) = nullptr;
};

/// Every registered transport, in registration order (the rows' ORDER; transport/transports.cpp.in).
std::span<const TransportEntry* const> transport_entries();
/// The registered transport called `name`, or null.
const TransportEntry* find_transport(std::string_view name);

}  // namespace armada::rma::detail
