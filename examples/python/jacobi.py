"""Jacobi iteration for Laplace's equation on a distributed grid with ghost cells.

Every rank updates its own block in place through local(ghosts=True), a NumPy view with a
one-cell frame of its neighbours' values; update_ghosts() refreshes the frames after each sweep.
The grid's edge is fixed (1 on the top row, 0 elsewhere). The result is compared with the same
sweeps in plain NumPy on one process; exits nonzero when they differ.

    mpiexec -n 4 armada-python examples/python/jacobi.py [n] [sweeps]

Armada finalizes itself at exit (before mpi4py finalizes MPI): no finalize() call is needed.
"""

import sys

import numpy as np

import armada


def sweep(g):
    """One Jacobi step of the interior of frame-surrounded block g: the mean of four neighbours."""
    return 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])


def serial(n, sweeps):
    u = np.zeros((n, n))
    u[0, :] = 1.0
    for _ in range(sweeps):
        u[1:-1, 1:-1] = sweep(u)
    return u


def main(n=40, sweeps=60):
    armada.init()
    u = armada.GlobalArray.create((n, n), np.float64, ghosts=1, name="u")
    if armada.rank() == 0:
        u[0, :] = 1.0                            # the fixed top edge
    armada.sync()
    (lo, hi), block = u.local_bounds(), u.local()
    # Which of this block's points are interior points of the grid (the edge stays fixed).
    rows = np.arange(lo[0], hi[0])[:, None]
    cols = np.arange(lo[1], hi[1])[None, :]
    interior = (rows > 0) & (rows < n - 1) & (cols > 0) & (cols < n - 1)
    u.update_ghosts()
    for _ in range(sweeps):
        framed = u.local(ghosts=True)
        if block.size:
            block[...] = np.where(interior, sweep(framed), block)
        u.update_ghosts()                        # collective: syncs before and after
    result = u[...]
    want = serial(n, sweeps)
    error = np.abs(result - want).max()
    if armada.rank() == 0:
        print(f"jacobi {n}x{n}, {sweeps} sweeps on {armada.size()} ranks: max difference from NumPy {error:.2e}")
    return 0 if error < 1e-12 else 1


if __name__ == "__main__":
    sys.exit(main(*map(int, sys.argv[1:])))
