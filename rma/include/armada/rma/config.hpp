// The one table of ARMADA_* settings. It drives parsing at init, docs/configuration.md and the
// armada-info tool; a new setting is one new row here and one field in Config.
#pragma once

#include <span>
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

/// The effective configuration, read once at init.
struct Config {
  int node_size = 0;         ///< ARMADA_NODE_SIZE: ranks per virtual node, 0 = physical nodes
  bool verbose = false;      ///< ARMADA_VERBOSE: print the configuration and topology at init
  int spin_limit = 2000;     ///< ARMADA_SPIN_LIMIT: busy-wait iterations before a waiter sleeps
  std::string transport = "server";  ///< ARMADA_TRANSPORT: inter-node transport (server, mpi-rma, none)
  bool server_poll = false;          ///< ARMADA_SERVER_POLL: idle server polls instead of sleeping
  int server_sleep_max_us = 200;     ///< ARMADA_SERVER_SLEEP_MAX_US: idle backoff ceiling
  int server_awake_us = 1000;        ///< ARMADA_SERVER_AWAKE_US: polling after the last request
  int server_buffers = 4;            ///< ARMADA_SERVER_BUFFERS: request buffers per client
  int server_inline = 4096;          ///< ARMADA_SERVER_INLINE: payload bytes inside a request
  int server_chunk = 262144;         ///< ARMADA_SERVER_CHUNK: pipeline chunk in bytes
  int server_cluster = 1;            ///< ARMADA_SERVER_CLUSTER: servers per cooperative cluster
  bool server_origin_progress = true;  ///< ARMADA_SERVER_ORIGIN_PROGRESS: complete nonblocking gets in the background
  std::string server_direct = "auto";  ///< ARMADA_SERVER_DIRECT: server copies data to/from origins on its host (auto, on, off)
  bool mpi_progress = true;          ///< ARMADA_MPI_PROGRESS: mpi-rma progress thread
  int mpi_progress_us = 100;         ///< ARMADA_MPI_PROGRESS_US: its polling interval
  int mpi_mutex_waiters = 64;        ///< ARMADA_MPI_MUTEX_WAITERS: MCS queue nodes per process
  std::string mpi_memory = "mpi";    ///< ARMADA_MPI_MEMORY: who allocates segments under mpi-rma (mpi, shm)
  std::string mpi_iov = "auto";      ///< ARMADA_MPI_IOV: mpi-rma vector method (auto, batched, direct)
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
