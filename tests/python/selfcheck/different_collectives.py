"""Run by the row python_mpi_error_in_a_collective_raises: at 2 ranks, rank 1 computes a dot
product (a collective whose agreement is an allreduce) while rank 0 syncs (a barrier). Open MPI
returns MPI_ERR_TRUNCATE to rank 0's barrier; mpi4py's MPI_ERRORS_RETURN, which Armada's world
inherited, let rank 0 go on as if the sync had completed. It must raise, and, uncaught, end the job."""

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
