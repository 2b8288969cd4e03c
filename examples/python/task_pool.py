"""A task pool: ranks draw tasks from a shared counter (read_inc) until none is left.

Task t computes row t of C = A @ B: it gets row t of A and all of B one-sidedly, and puts the
row of C. Whichever rank is free takes the next task, so fast ranks do more. Every task also adds
1 to its slot of a `done` array; afterwards each slot must be exactly 1, and C must equal NumPy's
A @ B. Exits nonzero otherwise.

    mpiexec -n 4 armada-python examples/python/task_pool.py [n]
"""

import sys

import numpy as np

import armada


def main(n=48):
    with armada.init():
        rng = np.random.default_rng(7)
        a_ref, b_ref = rng.standard_normal((n, n)), rng.standard_normal((n, n))
        A = armada.GlobalArray.create((n, n), name="A")
        B = armada.GlobalArray.create((n, n), name="B")
        C = armada.GlobalArray.create((n, n), name="C")
        counter = armada.GlobalArray.create((1,), np.int64, name="counter")
        done = armada.GlobalArray.create((n,), np.int32, name="done")
        if armada.rank() == 0:
            A[...] = a_ref
            B[...] = b_ref
        armada.sync()

        b = B[...]                                  # every task needs all of B
        mine = 0
        while (t := counter.read_inc(0)) < n:
            C[t, :] = A[t, :] @ b
            done.acc(t, 1)
            mine += 1
        armada.sync()

        counts = done[...]
        error = np.abs(C[...] - a_ref @ b_ref).max()
        taken = armada.comm().gather(mine, root=0)
        ok = (counts == 1).all() and error < 1e-10
        if armada.rank() == 0:
            print(f"task pool: {n} tasks on {armada.size()} ranks, taken per rank {taken}; "
                  f"each done once: {(counts == 1).all()}; max |C - A@B| = {error:.2e}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*map(int, sys.argv[1:])))
