"""`mpiexec -n 4 armada-python -m armada.demo`: a tour of Armada from Python, checked against NumPy.

Every rank writes its own rows of a distributed matrix one-sidedly, reads a patch another rank
owns, accumulates into a shared column, draws work from a shared counter and multiplies matrices;
each result is compared with the same computation in plain NumPy. Exits nonzero on a mismatch.
"""

import sys

import numpy as np

import armada


def main():
    armada.init()
    me, nproc = armada.rank(), armada.size()
    say = print if me == 0 else (lambda *a, **k: None)
    say(f"armada demo on {nproc} ranks, {armada.nodes()} node(s): {armada.transport_choice()}")
    failures = []

    def check(what, got, want):
        ok = np.allclose(got, want)
        if not ok:
            failures.append(what)
        say(f"  {what:<46} {'ok' if ok else 'WRONG'}")

    n = 12
    ref = np.arange(n * n, dtype=np.float64).reshape(n, n)
    with armada.GlobalArray.create((n, n), np.float64, name="A") as a:
        a[me::nproc, :] = ref[me::nproc, :]                 # every rank its rows, strided put
        armada.sync()
        other = (me + 1) % nproc
        lo, hi = a.block(other)
        check(f"get of rank {other}'s block {lo}..{hi}", a[lo[0]:hi[0], lo[1]:hi[1]],
              ref[lo[0]:hi[0], lo[1]:hi[1]])
        armada.sync()                                        # every read done before the updates
        a.acc((slice(None), 0), np.ones(n), alpha=2.0)       # every rank adds 2 to column 0
        armada.sync()
        want = ref.copy()
        want[:, 0] += 2.0 * nproc
        check("accumulate into column 0 from every rank", a[...], want)
        check("norm (Frobenius)", a.norm(), np.linalg.norm(want))
        block = a.local()
        (blo, bhi) = a.local_bounds()
        check("local() is this rank's block, no copy",
              block, want[blo[0]:bhi[0], blo[1]:bhi[1]])

        with armada.GlobalArray.create((1,), np.int64, name="counter") as counter:
            done = []
            while (task := counter.read_inc(0)) < 20:       # a shared task counter
                done.append(task)
            armada.sync()
            tasks = np.concatenate(armada.comm().allgather(np.array(done, dtype=np.int64)))
            check("read_inc: 20 tasks, each taken once", np.sort(tasks), np.arange(20))

        with a.duplicate("C") as c:
            armada.linalg.gemm(a, a, c, transb="T")
            check("linalg.gemm: C = A @ A.T", c[...], want @ want.T)

    armada.finalize()
    if failures:
        print(f"[rank {me}] demo FAILED: {', '.join(failures)}", file=sys.stderr)
        return 1
    say("demo passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
