"""Run by the row python_exit_order: a program that never calls armada.finalize(). At interpreter
exit Armada must finalize (destroying its arrays) before mpi4py finalizes MPI. A hook registered
before armada.init() runs after Armada's (atexit runs last-registered first) and checks both."""

import atexit

from mpi4py import MPI
import numpy as np

import armada


def check():
    ok = not armada.initialized() and not MPI.Is_finalized() and not a.valid
    print(f"[rank {MPI.COMM_WORLD.Get_rank()}] exit order {'ok' if ok else 'WRONG'}", flush=True)
    if not ok:
        MPI.COMM_WORLD.Abort(1)


atexit.register(check)
armada.init()
a = armada.GlobalArray.create((8,), np.float64, name="left alive")
a[armada.rank()] = 1.0
