// The NAS MG problem classes and operators, as NPB 3.4 defines them: one table.
//
// MG solves the discrete Poisson problem A u = v on a periodic n x n x n grid with a V-cycle
// multigrid: A is the 27-point operator with coefficients a (by the number of nonzero offsets of
// a neighbour: 0, 1, 2, 3), the smoother S applies the 27-point stencil c, restriction P and
// prolongation Q are trilinear. The benchmark runs `iterations` V-cycles and verifies the L2 norm
// of the final residual against the official value (relative error 1e-8).
#pragma once

#include <array>
#include <optional>

namespace armada::mg {

/// Stencil coefficients by the number of nonzero offset components (center, face, edge, corner).
using Stencil = std::array<double, 4>;

struct ProblemClass {
  char name;
  int n;                 ///< grid points per dimension (a power of two)
  int iterations;
  double reference;      ///< official L2 norm of the final residual
  Stencil smoother;      ///< c: S(a) for S, W, A; S(b) for B, C
};

/// The operator A (all classes). The kernels use that a[1] = 0 and c[3] = 0, as NPB does.
inline constexpr Stencil operator_a{-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
inline constexpr Stencil smoother_sa{-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
inline constexpr Stencil smoother_sb{-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0};
static_assert(operator_a[1] == 0.0 && smoother_sa[3] == 0.0 && smoother_sb[3] == 0.0,
              "resid and psinv skip the a[1] and c[3] terms");

inline constexpr std::array<ProblemClass, 5> problem_classes{{
    {'S', 32, 4, 0.5307707005734e-04, smoother_sa},
    {'W', 128, 4, 0.6467329375339e-05, smoother_sa},
    {'A', 256, 4, 0.2433365309069e-05, smoother_sa},
    {'B', 256, 20, 0.1800564401355e-05, smoother_sb},
    {'C', 512, 20, 0.5706732285740e-06, smoother_sb},
}};

/// The class letters in table order ("SWABC").
inline constexpr char class_letters[] = "SWABC";

inline std::optional<ProblemClass> find_class(char name) {
  for (const ProblemClass& c : problem_classes)
    if (c.name == name) return c;
  return std::nullopt;
}

/// NPB's operation count per grid point and iteration (Mop/s = 58 nit n^3 1e-6 / t).
inline constexpr double flops_per_point = 58.0;

/// NPB's random field: seed and the number of +1 and -1 charges.
inline constexpr double zran3_seed = 314159265.0;
inline constexpr int zran3_charge_count = 10;

}  // namespace armada::mg
