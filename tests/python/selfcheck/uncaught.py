"""Run by the row python_uncaught_exception_aborts: the last rank raises an uncaught exception
before a collective the others wait in. Armada must end the job (MPI_Abort at exit), not leave
the others waiting until the launch timeout."""

import numpy as np

import armada

armada.init()
a = armada.GlobalArray.create((10,), np.float64, name="A")
if armada.rank() == armada.size() - 1:
    a[20] = 1.0                  # BoundsError, never caught
armada.sync()                    # the other ranks wait here
