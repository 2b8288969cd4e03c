"""Run by the row python_sys_exit_aborts: the last rank leaves by sys.exit(3) while the others
wait in a collective. A SystemExit skips the exception hook; Armada must still end the job at once
(MPI_Abort at exit, as for an uncaught exception), not finalize on that rank alone. The row sets
ARMADA_FINALIZE_WAIT beyond its timeout, so finalize's bounded wait cannot be what ends it."""

import sys

import armada

armada.init()
if armada.rank() == armada.size() - 1:
    sys.exit(3)
armada.sync()                    # the other ranks wait here
