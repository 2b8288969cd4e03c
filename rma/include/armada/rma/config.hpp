// The one table of ARMADA_* settings. It drives parsing at init, the defaults, docs/configuration.md
// and the armada-info tool. The core's rows are in rma/src/core/config.cpp, each transport's in its
// folder (rma/src/transport/<name>/); a new setting is one new row (and, for the core, a field).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <functional>
#include <map>
#include <span>
#include <string_view>
#include <string>
#include <vector>

namespace armada::rma {

/// One row of the settings table.
struct Setting {
  const char* name;          ///< environment variable, e.g. "ARMADA_NODE_SIZE"
  const char* type;          ///< "int", "bool", "string"
  const char* default_value;
  const char* meaning;
};

/// Every setting Armada reads, in documentation order.
std::span<const Setting> settings() noexcept;

/// The effective configuration, read once at init. Every value's default is its row's in the
/// settings table (a default-constructed Config holds them); nothing here repeats one.
struct Config {
  /// The table's defaults.
  Config();

  int node_size;             ///< ARMADA_NODE_SIZE: ranks per virtual node, 0 = physical nodes
  bool verbose;              ///< ARMADA_VERBOSE: print the configuration and topology at init
  int spin_limit;            ///< ARMADA_SPIN_LIMIT: busy-wait iterations before a waiter sleeps
  std::string transport;     ///< ARMADA_TRANSPORT: inter-node transport (a registered name, or none)
  // The server and mpi-rma transports' settings have fields of their own (programs read them);
  // other transports' settings are read by name with integer(), flag() and text().
  bool server_poll;            ///< ARMADA_SERVER_POLL: idle server polls instead of sleeping
  int server_sleep_max_us;     ///< ARMADA_SERVER_SLEEP_MAX_US: idle backoff ceiling
  int server_awake_us;         ///< ARMADA_SERVER_AWAKE_US: polling after the last request
  int server_buffers;          ///< ARMADA_SERVER_BUFFERS: request buffers per client
  int server_inline;           ///< ARMADA_SERVER_INLINE: payload bytes inside a request
  int server_chunk;            ///< ARMADA_SERVER_CHUNK: pipeline chunk in bytes
  int server_cluster;          ///< ARMADA_SERVER_CLUSTER: servers per cooperative cluster
  bool server_origin_progress; ///< ARMADA_SERVER_ORIGIN_PROGRESS: complete nonblocking gets in the background
  std::string server_direct;   ///< ARMADA_SERVER_DIRECT: server copies data to/from origins on its host (auto, on, off)
  bool mpi_progress;           ///< ARMADA_MPI_PROGRESS: mpi-rma progress thread
  int mpi_progress_us;         ///< ARMADA_MPI_PROGRESS_US: its polling interval
  int mpi_mutex_waiters;       ///< ARMADA_MPI_MUTEX_WAITERS: MCS queue nodes per process
  std::string mpi_memory;      ///< ARMADA_MPI_MEMORY: who allocates segments under mpi-rma (mpi, shm)
  std::string mpi_iov;         ///< ARMADA_MPI_IOV: mpi-rma vector method (auto, batched, direct)

  /// Every setting's effective value as text (checked), by variable name.
  std::map<std::string, std::string, std::less<>> values;
  /// The value of an "int", "bool" or "string" setting by variable name; InvalidArgument if
  /// there is no such setting.
  long integer(std::string_view name) const;
  bool flag(std::string_view name) const;
  const std::string& text(std::string_view name) const;
};

/// Reads the ARMADA_* environment; throws InvalidArgument naming the variable on a bad value.
Config read_config();

/// Value of setting `name` as the environment gives it now (or its default), for printing.
std::string setting_value(const Setting& setting);

/// An ARMADA_* variable of the environment that is no setting, with the closest setting name.
struct UnknownSetting {
  std::string name;
  std::string closest;
};
/// The ARMADA_* variables that are neither settings nor variables of Armada's scripts and other
/// layers (ARMADA_MPI, ARMADA_SANITIZE, ..., ARMADA_LINALG_*, ARMADA_TEST_*, ...): most likely
/// misspelt settings. rma::init warns about each once, on rank 0.
std::vector<UnknownSetting> unknown_settings();

}  // namespace armada::rma
