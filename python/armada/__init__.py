"""Armada from Python: distributed N-d arrays as NumPy, with mpi4py (docs/python.md).

    import numpy as np, armada
    armada.init()                                  # Armada's world: mpi4py's COMM_WORLD
    a = armada.GlobalArray.create((1000, 800), np.float64)
    a[10:20, :] = 1.0                              # one-sided put from any rank
    armada.sync()
    block = a[0:10, 0:10]                          # one-sided get: a NumPy array
    armada.save("run.h5", [a])                     # HDF5, collective (docs/io.md)
"""

import atexit as _atexit
import sys as _sys

from . import _build


def _wrong_interpreter(reason):
    """The ImportError when this interpreter cannot load the package: which one it was built for,
    and the command that runs a program on it."""
    here = f"{_sys.executable} (Python {_sys.version.split()[0]})"
    return ImportError(
        f"armada cannot be imported into {here}: {reason}.\n"
        f"The armada package was built for {_build.PYTHON} (Python {_build.PYTHON_VERSION}) with NumPy and "
        f"mpi4py. Run your program with it:\n"
        f"    armada-python your_program.py          (or: {_build.PYTHON} your_program.py)\n"
        f"    mpiexec -n 4 armada-python -m armada.demo\n"
        f"(docs/python.md#which-python)")


try:
    import numpy as _numpy  # noqa: F401  (the extension needs it; say so before it fails obscurely)
    from . import _core
    import mpi4py as _mpi4py  # noqa: F401
except ImportError as _missing:
    _why = f"{type(_missing).__name__}: {_missing}"
    if getattr(_missing, "name", None) == "armada._core":  # built for another Python version or ABI
        _why += f" (its compiled part armada/_core is for Python {_build.PYTHON_VERSION})"
    raise _wrong_interpreter(_why) from _missing

# Before MPI starts (mpi4py starts it when MPI is imported): the settings Armada's mpi-rma
# transport needs, unless the user set them (docs/mpi-quirks.md).
if "mpi4py.MPI" not in _sys.modules:
    _core.prepare_mpi_environment()
from mpi4py import MPI as _MPI  # noqa: E402  (after the settings above)

from ._core import (  # noqa: E402
    ArgumentError,
    BoundsError,
    DatasetInfo,
    DTypeError,
    Error,
    FilePermissionError,
    GlobalArray,
    Group,
    IntegerOverflowError,
    LinAlgError,
    NoSuchFileError,
    Request,
    SparseMatrix,
    StateError,
    add,
    checkpoint,
    copy,
    dot,
    io_available,
    latest_checkpoint,
    list_datasets,
    load,
    load_patch,
    multiply,
    nodes,
    rank,
    restart,
    save,
    size,
    sync,
    transport_choice,
)
from . import linalg  # noqa: E402,F401

__all__ = [
    "init", "finalize", "initialized", "comm", "rank", "size", "nodes", "sync", "transport_choice",
    "GlobalArray", "Group", "Request", "SparseMatrix", "add", "copy", "dot", "multiply", "linalg",
    "io_available", "save", "load", "load_patch", "list_datasets", "DatasetInfo", "checkpoint", "restart",
    "latest_checkpoint",
    "Error", "ArgumentError", "BoundsError", "DTypeError", "StateError", "LinAlgError", "IntegerOverflowError",
    "NoSuchFileError", "FilePermissionError",
]

_world = None                 # the mpi4py communicator Armada runs on
_exit_registered = False
_uncaught = None              # (class, exception) set by the exception hook: abort at exit, not finalize
_leaving = None               # the SystemExit of the last sys.exit() call (see _exit_status)
_exit_code = None             # the code of init()'s wrapper of sys.exit


class _Session:
    """What init() returns: a context manager that finalizes Armada when the block ends."""

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if initialized():
            if kind is not None and size() > 1 and not (kind is SystemExit and _status_of(value) == 0):
                # Other ranks may be waiting in a collective this rank will never reach.
                _abort(kind, value, _status_of(value) if kind is SystemExit else 1)
            finalize()
        return False


def init(comm=None):
    """Starts Armada on `comm` (an mpi4py communicator; default MPI.COMM_WORLD): Armada's ranks
    are its ranks. Collective over `comm`. Returns a context manager that finalizes Armada at the
    end of a `with` block; otherwise Armada finalizes at interpreter exit, before MPI does."""
    global _world, _exit_registered, _exit_code
    if comm is None:
        comm = _MPI.COMM_WORLD
    if not isinstance(comm, _MPI.Comm) or comm == _MPI.COMM_NULL:
        raise ArgumentError(f"armada.init: argument 'comm' = {comm!r}: must be an mpi4py communicator")
    if _MPI.Is_finalized():
        raise StateError("armada.init: MPI is already finalized")
    _core.init(comm.py2f())
    _world = comm
    if not _exit_registered:
        # Registered after mpi4py's import: atexit runs it before mpi4py finalizes MPI.
        _atexit.register(_at_exit)
        _previous_hook = _sys.excepthook

        def _hook(kind, value, traceback):
            global _uncaught
            _uncaught = (kind, value)
            _previous_hook(kind, value, traceback)

        _sys.excepthook = _hook
        # A SystemExit never reaches the exception hook; sys.exit keeps it for _at_exit.
        _system_exit = _sys.exit

        def _exit(*status):
            global _leaving
            try:
                _system_exit(*status)
            except SystemExit as leaving:
                _leaving = leaving
                raise

        _sys.exit = _exit
        _exit_code = _exit.__code__
        _exit_registered = True
    return _Session()


def finalize():
    """Destroys every array still alive and stops Armada; collective over its world. MPI stays up
    (mpi4py finalizes it at exit). init() may be called again afterwards."""
    global _world
    _core.finalize()
    _world = None


def initialized():
    return _core.initialized()


def comm():
    """The mpi4py communicator Armada runs on (its world), or None before init()."""
    return _world


def _abort(kind, value, status=1):
    _sys.stderr.write(f"{_core.message_prefix()}armada: uncaught {kind.__name__}: {value}; aborting the job "
                      "(the other ranks cannot finish a collective without this one)\n")
    _sys.stderr.flush()
    _MPI.COMM_WORLD.Abort(status)


def _status_of(leaving):
    """The exit status a SystemExit gives the process (None and 0: 0; a message: 1)."""
    code = leaving.code
    return 0 if code is None else code if isinstance(code, int) else 1


def _exit_status():
    """The status of the sys.exit() that ends the program, or 0. A SystemExit caught by a
    function (argparse's, in a try) got the frames up to its catcher in its traceback; one that
    ended the program got none beyond sys.exit's (Python 3.11: the interpreter takes it from its
    own state) or reached the main module's (3.12 on, which adds the frames as it goes)."""
    if _leaving is None:
        return 0
    tb = _leaving.__traceback__
    callers = []
    while tb is not None:
        if tb.tb_frame.f_code is not _exit_code:
            callers.append(tb.tb_frame)
        tb = tb.tb_next
    uncaught = not callers or any(f.f_code.co_name == "<module>" and f.f_globals.get("__name__") == "__main__"
                                  for f in callers)
    return _status_of(_leaving) if uncaught else 0


def _at_exit():
    if not _core.initialized():
        return
    if _MPI.Is_finalized():
        _sys.stderr.write(f"{_core.message_prefix()}armada: MPI was finalized before Armada (call armada.finalize() "
                          "before MPI.Finalize()); Armada's memory is released by the operating system\n")
        return
    if _uncaught and size() > 1:
        _abort(*_uncaught)
    status = _exit_status()
    if status != 0 and size() > 1:
        # Like an exception: the other ranks may wait in a collective this one left.
        _abort(SystemExit, f"sys.exit({_leaving.code!r}), exit status {status}", status)
    _core.finalize()


def _enter(self):
    return self


def _exit(self, kind, value, traceback):
    if self.valid and _core.initialized():
        self.destroy()
    return False


def _array(self, dtype=None, copy=None):
    whole = self[...]
    return whole if dtype is None else whole.astype(dtype)


# `with GlobalArray.create(...) as a:` destroys the array at the end of the block (collective).
GlobalArray.__enter__ = _enter
GlobalArray.__exit__ = _exit
# numpy.asarray(a): the whole array, fetched by this rank (a one-sided get; not collective).
GlobalArray.__array__ = _array
