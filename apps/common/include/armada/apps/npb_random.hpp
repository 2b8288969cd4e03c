// NPB's pseudo-random numbers: the linear congruential generator of the NAS Parallel Benchmarks,
// reproduced to the bit so that the benchmarks' data (and so their official results) match.
//
// The generator is x_{k+1} = a * x_k mod 2^46 with odd seeds below 2^46; each step yields
// x_{k+1} * 2^-46 in (0, 1). NPB uses a = 5^13 and keeps seeds in doubles (exact: they are below
// 2^53); the functions below take and return seeds the same way so that code written against
// NPB's specification (randlc, vranlc, and the skip-ahead a^n mod 2^46) reads the same here.
// The arithmetic is integer: (a * x mod 2^64) mod 2^46 == a * x mod 2^46, since 2^46 divides 2^64.
#pragma once

#include <cstdint>

namespace armada::apps {

/// NPB's multiplier 5^13 and the modulus exponent 46.
inline constexpr double npb_multiplier = 1220703125.0;
inline constexpr int npb_random_bits = 46;

/// One step: x = a * x mod 2^46; returns the new x * 2^-46. `x` and `a` must be integers in
/// [1, 2^46) held in doubles (as NPB's randlc).
double randlc(double& x, double a);

/// `n` steps: y[i] = the i-th next value (as randlc), and x is left at the last seed (as NPB's
/// vranlc). n <= 0 does nothing.
void vranlc(long n, double& x, double a, double* y);

/// a^n mod 2^46 for n >= 0: the multiplier that skips n steps at once (x_{k+n} = a^n x_k).
double npb_power(double a, std::int64_t n);

}  // namespace armada::apps
