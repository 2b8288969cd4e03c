#include "armada/apps/npb_random.hpp"

namespace armada::apps {
namespace {
constexpr std::uint64_t mask = (std::uint64_t{1} << npb_random_bits) - 1;
constexpr double scale = 1.0 / static_cast<double>(std::uint64_t{1} << npb_random_bits);

// Unsigned 64-bit products wrap mod 2^64, which keeps the low 46 bits exact.
std::uint64_t step(std::uint64_t x, std::uint64_t a) { return (a * x) & mask; }
}  // namespace

double randlc(double& x, double a) {
  const std::uint64_t next = step(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(a));
  x = static_cast<double>(next);
  return static_cast<double>(next) * scale;
}

void vranlc(long n, double& x, double a, double* y) {
  std::uint64_t s = static_cast<std::uint64_t>(x);
  const std::uint64_t m = static_cast<std::uint64_t>(a);
  for (long i = 0; i < n; ++i) {
    s = step(s, m);
    y[i] = static_cast<double>(s) * scale;
  }
  x = static_cast<double>(s);
}

double npb_power(double a, std::int64_t n) {
  // Square and multiply, mod 2^46.
  std::uint64_t result = 1, base = static_cast<std::uint64_t>(a) & mask;
  for (; n > 0; n >>= 1) {
    if (n & 1) result = step(result, base);
    base = step(base, base);
  }
  return static_cast<double>(result);
}

}  // namespace armada::apps
