// The one table of ARMADA_* settings. It drives parsing at init, the defaults, docs/configuration.md
// and the armada-info tool. The core's rows are in rma/src/core/config.cpp, each transport's in its
// folder (rma/src/transport/<name>/, over the transport's own settings struct); a new setting is one
// new row (and a field in its owner's struct).
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
  int spin_limit;            ///< ARMADA_SPIN_LIMIT: busy-wait rounds before a waiter yields or sleeps (-1: the host's rule; init resolves it)
  int stall_warn_s;          ///< ARMADA_STALL_WARN: seconds of waiting for another node before a warning, 0 = never
  std::string transport;     ///< ARMADA_TRANSPORT: inter-node transport (a registered name, or none)
  // A transport's settings (ARMADA_SERVER_*, ARMADA_MPI_*, ARMADA_RDMA_*, ...) belong to the
  // transport: read them by name with integer(), flag() and text().

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

/// A setting of a layer above rma (linalg's ARMADA_LINALG_*) as a row of the same form as rma's
/// own: the documented row and the values it accepts. The layer reads it with read_settings (the
/// same rules and messages as rma's rows); armada-info and docs/configuration.md list it after
/// rma's. rma's own table (settings()) stays rma's: it knows no layer above it.
struct SettingRule {
  Setting doc;
  long min = 0, max = 0;          ///< "int": the accepted range
  const char* choices = nullptr;  ///< "string": the accepted values, "a|b|c" (null: any text)
};

/// The values of `rules` as the environment gives them now (surrounding blanks trimmed; a
/// rule's default where unset), each checked by the rules of rma's own rows; throws
/// InvalidArgument naming `operation`, the variable, the value and what it must be. Read them
/// by name with Config::integer / flag / text (the result holds rma's defaults too).
Config read_settings(std::span<const SettingRule> rules, const char* operation);

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
