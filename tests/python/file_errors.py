"""armada.load, load_patch and list_datasets raise Python's own file errors: FileNotFoundError for
a file that is not there, PermissionError for one this process may not read (each also an
armada.Error, with errno set and the file named), on every rank.

    mpiexec -n 2 armada-python file_errors.py MISSING UNREADABLE
"""
import errno
import sys

import armada

armada.init()
missing, unreadable = sys.argv[1], sys.argv[2]
calls = {
    "load": lambda f: armada.load(f, "u"),
    "load_patch": lambda f: armada.load_patch(f, "u", (0,), (1,)),
    "list_datasets": lambda f: armada.list_datasets(f),
}
for name, call in calls.items():
    for path, kind, code in ((missing, FileNotFoundError, errno.ENOENT), (unreadable, PermissionError, errno.EACCES)):
        try:
            call(path)
        except kind as e:
            assert isinstance(e, armada.Error), f"{name}({path!r}): {e!r} is not an armada.Error"
            assert e.errno == code, f"{name}({path!r}): errno {e.errno}, not {code}"
            assert path in str(e), f"{name}({path!r}): the message does not name the file: {e}"
        except Exception as e:  # noqa: BLE001  (any other class is the failure this test is for)
            sys.exit(f"[rank {armada.rank()}] {name}({path!r}) raised {type(e).__name__}, not {kind.__name__}: {e}")
        else:
            sys.exit(f"[rank {armada.rank()}] {name}({path!r}) raised nothing")
armada.sync()
if armada.rank() == 0:
    print(f"file errors ok on {armada.size()} ranks: FileNotFoundError and PermissionError from {', '.join(calls)}")
