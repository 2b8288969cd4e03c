"""Run by the row python_finalize_waits_bounded: the last rank finalizes while the others are in
another collective (a sync it never joins). finalize must wait at most ARMADA_FINALIZE_WAIT
seconds for every rank, then abort the job naming the ranks that did not come."""

import numpy as np

import armada

armada.init()
a = armada.GlobalArray.create((8,), np.float64, name="A")   # finalize destroys it: collective
if armada.rank() == armada.size() - 1:
    armada.finalize()
else:
    armada.sync()                # waits for the last rank, which is in finalize
print(f"[rank {armada.rank()}] WRONG: still running", flush=True)
