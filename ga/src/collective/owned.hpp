// The update of every member's own blocks that the element-wise and matrix operations share.
#pragma once

#include "base/call.hpp"

namespace armada::ga {

/// Syncs a's group, calls f(T{}, view) for each block this process owns (one, or a block-cyclic
/// array's many), releases with update, and syncs again. A scalar the update applies (`value`, one element of a's type, named
/// `argument`) is compared in the opening sync with the array: every member must pass the same.
template <class F>
void update_owned(Array& a, F&& f, const char* argument = nullptr, const void* value = nullptr) {
  if (value) {
    constexpr const char* op = "arrays::sync_group";
    arrays::begin_collective(op, arrays::collective_group(op, a), [] {},
                             {arrays::same_shape("array", a), arrays::same_value(argument, a, value)});
  } else {
    a.sync_group();
  }
  if (a.group().is_member()) {
    for (const arrays::LocalView<void>& view : a.access_blocks())
      if (!view.empty()) arrays::with_element_type(a.type(), [&](auto zero) { f(zero, view); });
    a.release_update();
  }
  a.sync_group();
}

}  // namespace armada::ga
