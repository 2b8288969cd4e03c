// A row of the settings table as the core and the transports declare it. One row holds
// everything about a setting: its name, type, default and meaning (docs/configuration.md and
// armada-info print these), how a value is checked, and where it goes in Config. The core's rows
// are in core/config.cpp; each transport declares its own in its folder and names them in its
// TransportEntry (transport/plugin.hpp). rma::settings() lists the core's, then each
// registered transport's, in registration order.
#pragma once

#include <span>
#include <string>

#include "armada/rma/config.hpp"

namespace armada::rma::detail {

struct SettingRow {
  Setting doc;                    // name, type ("int", "bool", "string"), default, meaning
  long min = 0, max = 0;          // int: the accepted range
  const char* choices = nullptr;  // string: the accepted values, "a|b|c" (null: any text)
  // Where the value goes in Config: at most one field. A row without one (a transport's own
  // setting) is read with Config::integer / flag / text, by its variable name.
  int Config::*int_field = nullptr;
  bool Config::*bool_field = nullptr;
  std::string Config::*string_field = nullptr;
};

/// Every row: the core's, then each registered transport's.
std::span<const SettingRow> setting_rows();

}  // namespace armada::rma::detail
