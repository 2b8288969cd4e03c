"""Run by the row python_different_collectives_raise: at 2 ranks, rank 1 computes a dot product
while rank 0 syncs. Open MPI once returned MPI_ERR_TRUNCATE to rank 0's barrier, and mpi4py's
MPI_ERRORS_RETURN, which Armada's world inherited, let rank 0 go on as if the sync had completed.
Both must raise, naming both calls, and, uncaught, end the job."""

import numpy as np

import armada

armada.init()
a = armada.GlobalArray.create((100,), np.float64, name="A")
b = armada.GlobalArray.create((100,), np.float64, name="B")
if armada.rank() == armada.size() - 1:
    armada.dot(a, b)
else:
    armada.sync()
print(f"[rank {armada.rank()}] WRONG: went on", flush=True)
