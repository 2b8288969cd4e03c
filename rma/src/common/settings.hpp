// A row of the settings table as the core and the transports declare it. One row holds
// everything about a setting: its name, type, default and meaning (docs/configuration.md and
// armada-info print these), how a value is checked, and which field of its owner's settings
// struct receives the value (as UCX's config tables do). The core's rows fill rma::Config
// (core/config.cpp); each transport declares its own in its folder, over its own settings struct,
// and names them in its TransportEntry (transport/plugin.hpp). rma::settings() lists the core's,
// then each registered transport's, in registration order.
//
// The core checks every value once, at init (read_config), and keeps it as text in
// Config::values; when it starts a transport it fills the transport's struct from its rows
// (fill_settings) and hands it over in TransportContext::settings.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <type_traits>

#include "armada/rma/config.hpp"

namespace armada::rma::detail {

/// A checked value as a row's `store` receives it.
struct SettingValue {
  const std::string& text;  // the value as given (surrounding blanks trimmed)
  long number;              // "int": the value; "bool": 1 or 0; "string": 0
};

struct SettingRow {
  Setting doc;                    // name, type ("int", "bool", "string"), default, meaning
  long min = 0, max = 0;          // int: the accepted range
  const char* choices = nullptr;  // string: the accepted values, "a|b|c" (null: any text)
  /// Puts a checked value into the owner's settings struct (Config for the core's rows, the
  /// transport's struct for a transport's): field<&Owner::member>, or a function of the value.
  /// Null: the value is only read by name (Config::integer / flag / text).
  void (*store)(void* owner, const SettingValue& value) = nullptr;
};

namespace settings_detail {
template <class>
struct MemberOf;
template <class Owner, class T>
struct MemberOf<T Owner::*> {
  using owner = Owner;
  using type = T;
};
}  // namespace settings_detail

/// SettingRow::store for a row whose value goes to `Member` (an integer, bool or std::string
/// field of the owner's struct).
template <auto Member>
void field(void* owner, const SettingValue& value) {
  using M = settings_detail::MemberOf<decltype(Member)>;
  auto& target = static_cast<typename M::owner*>(owner)->*Member;
  if constexpr (std::is_same_v<typename M::type, std::string>)
    target = value.text;
  else if constexpr (std::is_same_v<typename M::type, bool>)
    target = value.number != 0;
  else
    target = static_cast<typename M::type>(value.number);
}

/// Every row: the core's, then each registered transport's.
std::span<const SettingRow> setting_rows();

/// Stores each row's effective value (config.values) into `owner` (its rows' struct).
void fill_settings(std::span<const SettingRow> rows, const Config& config, void* owner);

/// A new value-initialized S, for TransportEntry::new_settings.
template <class S>
std::shared_ptr<void> new_settings() {
  return std::make_shared<S>();
}

}  // namespace armada::rma::detail
