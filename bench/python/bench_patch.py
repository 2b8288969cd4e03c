"""Patch get/put from Python: armada against the same C++ call and against mpi4py's MPI.Win,
all in one launch (bench/README.md: baselines run side by side).

Rank 0 reads and writes a patch of `size` bytes of float64 that rank size-1 owns, three ways,
interleaved round by round so that a noisy machine affects all three alike:
  python  a[lo:hi] = buf; a.get(lo:hi, out=buf) (no allocation, as the C++ loop); a[lo:hi] (a new
          ndarray per get) is reported too, as python_new_us
  cxx     the same Array::get / Array::put in a C++ loop (armada._core._time_patch), on the same
          buffer as the Python loop
  mpi4py  MPI.Win.Allocate memory, Lock_all once; Get/Put + Flush per call
It prints one JSON line per (operation, size) with the median time per call of each and the
figures of issue 28: the Python overhead over C++ (µs), the Python rate over the C++ rate, and
the time of `import armada` + `armada.init()` (the slowest rank). Every transfer is verified.

    mpiexec -n 4 python3 bench/python/bench_patch.py [--quick] [--sizes 8,1048576]
"""

import time

_start = time.perf_counter()
import armada  # noqa: E402  (timed)

armada.init()
_startup = time.perf_counter() - _start

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402


def per_call(fn, iterations):
    t = time.perf_counter()
    fn(iterations)
    return (time.perf_counter() - t) / iterations


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="few rounds and iterations (a smoke test)")
    parser.add_argument("--sizes", default="8,64,4096,65536,1048576", help="patch sizes in bytes")
    args = parser.parse_args()
    rounds, base_iterations = (3, 20) if args.quick else (15, 2000)
    sizes = [int(s) for s in args.sizes.split(",")]
    comm = armada.comm()
    me, nproc = comm.Get_rank(), comm.Get_size()
    startup = comm.allreduce(_startup, op=MPI.MAX)
    longest = max(sizes) // 8
    target = nproc - 1
    a = armada.GlobalArray.create((nproc * longest,), np.float64, chunks=longest, name="bench")
    lo = a.block(target)[0][0]
    win = MPI.Win.Allocate(longest * 8, 8, comm=comm)
    win.Lock_all()
    failures = 0
    for size in sizes:
        n = size // 8
        key = slice(lo, lo + n)
        # Large patches: enough calls per round (>= 200 in a full run) that a round lasts tens of
        # milliseconds: with 40 calls (a few ms) one preemption on this 2-core VM moved a round's
        # median by several percent, the size of the difference measured at 1 MiB.
        iterations = max(base_iterations // 10, base_iterations * 8192 // size) if size > 65536 else base_iterations
        data = np.arange(n, dtype=np.float64) + size
        out = np.empty(n)
        for what in ("put", "get"):
            times = {"python": [], "python_new": [], "cxx": [], "mpi4py": []}
            comm.Barrier()
            if me == 0:
                def python_put(k):
                    for _ in range(k):
                        a[key] = data

                def python_get(k):
                    for _ in range(k):
                        a.get(key, out=out)

                def python_new(k):
                    for _ in range(k):
                        a[key]

                def mpi4py_op(k):
                    for _ in range(k):
                        (win.Put if what == "put" else win.Get)(data if what == "put" else out, target)
                        win.Flush(target)

                def cxx_op(k):
                    armada._core._time_patch(a, what, (lo,), (lo + n,), data if what == "put" else out, k)

                ways = [("python", python_put if what == "put" else python_get), ("cxx", cxx_op),
                        ("mpi4py", mpi4py_op)] + ([("python_new", python_new)] if what == "get" else [])
                for r in range(rounds):
                    # The order rotates from round to round: no way always runs first on cold caches.
                    for name, fn in ways[r % len(ways):] + ways[:r % len(ways)]:
                        times[name].append(per_call(fn, iterations))
                # Verify: the patch holds what was put (through armada and through the window).
                a[key] = data
                win.Put(data, target)
                win.Flush(target)
                win.Get(out, target)
                win.Flush(target)
                ok = np.array_equal(a[key], data) and np.array_equal(out, data)
                failures += 0 if ok else 1
                median = {k: statistics.median(v) if v else None for k, v in times.items()}
                print(json.dumps({
                    "op": what, "bytes": size, "ranks": nproc, "iterations": iterations, "rounds": rounds,
                    "python_us": median["python"] * 1e6, "cxx_us": median["cxx"] * 1e6,
                    "python_new_us": median["python_new"] * 1e6 if median["python_new"] else None,
                    "mpi4py_us": median["mpi4py"] * 1e6,
                    "python_overhead_us": (median["python"] - median["cxx"]) * 1e6,
                    "python_rate_over_cxx": median["cxx"] / median["python"],
                    "import_init_s": startup, "verified": bool(ok),
                }), flush=True)
            comm.Barrier()
    win.Unlock_all()
    win.Free()
    a.destroy()
    failures = comm.allreduce(failures)
    if me == 0 and failures:
        print(f"bench_patch: {failures} verification(s) FAILED", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
