// The one place a GA patch transfer moves data (patch.cpp): GA's C entry points and GA's Fortran
// API check their arguments in their own terms (C's zero-based view, Fortran's one-based one) and
// then call these, so that each argument is checked once whichever language called.
#pragma once

#include "base/call.hpp"

namespace armada::ga {

/// What a patch transfer does.
enum class Transfer { get, put, acc };

/// Moves patch p of g_a to or from buf (dense over p with arrays' ld `ld`; empty: dense), either
/// layout; p, buf and alpha (acc) checked by the caller. With `request`, nonblocking: *request
/// names it for NGA_NbWait.
void move_patch(const char* function, Transfer kind, int g_a, const arrays::Patch& p, void* buf, const Coord& ld,
                const void* alpha, ga_nbhdl_t* request = nullptr);
/// The strided form: every skip[d]-th element of p, packed in buf; blocking.
void move_strided(const char* function, Transfer kind, int g_a, const arrays::Patch& p, const Coord& skip, void* buf,
                  const Coord& ld, const void* alpha);

}  // namespace armada::ga
