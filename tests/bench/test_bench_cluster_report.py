#!/usr/bin/env python3
"""scripts/bench_cluster_report.py on two made-up launches (one armada-bench run for every
transport, then one run per transport, as bench-cluster.sh makes them): medians of the launches' medians,
the spread and its 'unstable' mark, the fastest transport per figure, and the targets against
the socket (launch by launch, the fetch-add against the round trip timed beside it where there is one),
auto's 8 B get on a full node (busy over quiet; a launch with one pass of the two left out); and
exit status 2 with nothing to read.

    test_bench_cluster_report.py SCRIPT
"""
import json
import os
import subprocess
import sys
import tempfile


def record(transport, family, op, method, metric, size, median):
    return {"transport": transport, "family": family, "op": op, "method": method, "metric": metric,
            "bytes": size, "x": 100 if metric == "overlap" else size, "median": median}


def launch(put_server, socket_one_way, server_atomic_rtt=None):
    runs = [{"transport": t, "status": "ok", "loadavg_start": 0.5, "loadavg_end": 1.5} for t in ("server", "rdma")]
    results = []
    for t, put, get, stream_get in (("server", put_server, 20.0, 1.8), ("rdma", 30.0, 10.0, 0.5)):
        results += [
            record(t, "contig", "put", "armada", "latency", 8, put),
            record(t, "contig", "get", "armada", "latency", 8, get),
            record(t, "contig", "notify", "armada_notify_pingpong_half", "latency", 8, put + 1.0),
            record(t, "atomic", "fetch_add", "armada", "latency", 8, 12.0),
            record(t, "contig", "get", "armada", "bandwidth", 1 << 20, stream_get),
            record(t, "contig", "sendrecv", "socket_pingpong_half", "latency", 8, socket_one_way),
            record(t, "contig", "sendrecv", "socket_stream", "bandwidth", 1 << 20, 2.0),
        ]
    if server_atomic_rtt:  # the socket's round trip timed beside the atomics: the fetch-add's own link figure
        results.append(record("server", "atomic", "round_trip", "socket_pingpong_rtt", "latency", 8, server_atomic_rtt))
    return {"runs": runs, "results": results}


def write_full_node(d, i, mode, get, polling_half=None, sleeping_half=None):
    """launch-<i>/full-node/<mode>/armada-bench.json: auto's 8 B get, which auto ran on tcp, and the
    socket's half round trips (polling and sleeping receivers) when given."""
    folder = os.path.join(d, f"launch-{i}", "full-node", mode)
    os.makedirs(folder)
    results = [record("auto", "contig", "get", "armada", "latency", 8, get)]
    for method, half in (("socket_pingpong_half", polling_half), ("socket_pingpong_sleep_half", sleeping_half)):
        if half is not None:
            results.append(record("auto", "contig", "sendrecv", method, "latency", 8, half))
    with open(os.path.join(folder, "armada-bench.json"), "w") as f:
        json.dump({"runs": [{"transport": "auto", "status": "ok", "route": "tcp"}], "results": results}, f)


def main():
    script = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as d:
        empty = subprocess.run([sys.executable, script, d], capture_output=True, text=True)
        if empty.returncode != 2 or "no launch-*" not in empty.stderr:
            failures.append(f"an empty folder: status {empty.returncode}, {empty.stderr!r}")
        for i, (put, one_way, atomic_rtt) in enumerate(((10.0, 5.0, None), (40.0, 5.0, 8.0)), start=1):
            os.makedirs(os.path.join(d, f"launch-{i}"))
            doc = launch(put, one_way, atomic_rtt)
            if i == 1:  # every transport in one armada-bench launch (the old layout)
                with open(os.path.join(d, f"launch-{i}", "armada-bench.json"), "w") as f:
                    json.dump(doc, f)
            else:  # each transport in a launch of its own (scripts/bench-cluster.sh now): one report
                for t in ("server", "rdma"):
                    os.makedirs(os.path.join(d, f"launch-{i}", t))
                    with open(os.path.join(d, f"launch-{i}", t, "armada-bench.json"), "w") as f:
                        json.dump({"runs": [r for r in doc["runs"] if r["transport"] == t],
                                   "results": [r for r in doc["results"] if r["transport"] == t]}, f)
            # MG: rma 1.0 and 1.2 s against mpi 1.0 s (ratio 1.1: met); CG: one rma run not verified;
            # MG on 4 ranks (2 per host): rma 1.3 s against 1.0 (missed), its output naming the server.
            os.makedirs(os.path.join(d, f"launch-{i}", "apps"))
            for bench, ranks, comm, t, ok in (("MG", 2, "rma", 0.9 + 0.1 * i, True), ("MG", 2, "mpi", 1.0, True),
                                              ("CG", 2, "rma", 0.5, i == 1), ("CG", 2, "mpi", 0.4, True),
                                              ("MG", 4, "rma", 1.3, True), ("MG", 4, "mpi", 1.0, True)):
                stem = os.path.join(d, f"launch-{i}", "apps", f"{bench.lower()}.{comm}.rph{ranks // 2}")
                with open(stem + ".json", "w") as f:
                    json.dump({"benchmark": bench, "class": "A", "ranks": ranks, "comm": comm, "time_s": t,
                               "verified": ok}, f)
                if ranks == 4:
                    with open(stem + ".txt", "w") as f:
                        f.write("  inter-node transport: server (ARMADA_TRANSPORT=auto: ...)\n")
            # MG on 4 ranks with --comm rma on tcp as well (--app-transports "auto tcp"): 0.9 s.
            stem = os.path.join(d, f"launch-{i}", "apps", "mg.rma-tcp.rph2")
            with open(stem + ".json", "w") as f:
                json.dump({"benchmark": "MG", "class": "A", "ranks": 4, "comm": "rma", "time_s": 0.9, "verified": True}, f)
            with open(stem + ".txt", "w") as f:
                f.write("  inter-node transport: tcp (ARMADA_TRANSPORT=tcp)\n")
            # auto's 8 B get on a full node: quiet 20 and 25 us, busy 70 and 50 (ratios 3.5 and 2);
            # the socket's halves: quiet polling 10 (sleeping 15: not the quiet figure), busy polling
            # 40 and 25, sleeping 30 and 35: round trips 20 -> 60 and 50 (the better way each time).
            write_full_node(d, i, "quiet", 15.0 + 5 * i, 10.0, 15.0)
            write_full_node(d, i, "busy", 90.0 - 20 * i, (40.0, 25.0)[i - 1], (30.0, 35.0)[i - 1])
            with open(os.path.join(d, f"launch-{i}", "full-node", "cores-per-host"), "w") as f:
                f.write("1\n")  # bench-cluster.sh: each host on a core of its own
        write_full_node(d, 3, "busy", 1000.0)  # a launch cut short: its busy pass alone counts for nothing
        out = subprocess.run([sys.executable, script, d], capture_output=True, text=True)
        text = out.stdout
        expected = [
            "2 launches; load average during the passes 0.50..1.50",
            # server's put: medians 10 and 40 -> median 25, spread 300 %: unstable
            "armada 8 B put                      25 us [10..40] spread 300% unstable",
            "armada 8 B get                      20 us [20..20] spread 0%",
            "TCP socket one-way 8 B              5 us [5..5] spread 0%",
            "  8 B put              server",   # 25 < 30
            "  8 B get              rdma",     # 10 < 20
            "  1 MiB get            server",   # 1.8 > 0.5 GB/s
            "armada 8 B put_notify seen          26 us [11..41] spread 273% unstable",
            # each launch's ratio to its own socket, their median [the worst]: server's puts 10/5 and
            # 40/5; its fetch-adds 12 over 2 x 5 (no round trip beside the atomics in launch 1) and
            # over 8 (launch 2's): 1.2 and 1.5
            "server: 8 B put 5x one-way [8] (missed: <= 1.5x); 8 B put_notify seen 5.2x one-way [8.2] (missed: <= 1.5x); "
            "8 B get 2x round trip [2] (missed: <= 1.3x); fetch-add 1.4x round trip beside the atomics [1.5] "
            "(missed: <= 1.3x); 1 MiB get 0.9x stream [0.9] (met: >= 0.8x)",
            "rdma: 8 B put 6x one-way [6] (missed: <= 1.5x); 8 B put_notify seen 6.2x one-way [6.2] (missed: <= 1.5x); "
            "8 B get 1x round trip [1] (met: <= 1.3x); fetch-add 1.2x round trip beside the atomics [1.2] (met: <= 1.3x)",
            "  MG class A, 2 ranks: rma 1.05 s [1..1.1] (2), mpi 1 s [1..1] (2); rma/mpi 1.05 (met: <= 1.1)",
            "  CG class A, 2 ranks: rma 0.5 s [0.5..0.5] (2), mpi 0.4 s [0.4..0.4] (2); 1 run(s) NOT VERIFIED",
            "  MG class A, 4 ranks: rma 1.3 s [1.3..1.3] (2), mpi 1 s [1..1] (2); rma/mpi 1.30 (missed: <= 1.1); "
            "rma ran on server",
            "  MG class A, 4 ranks on tcp: rma 0.9 s [0.9..0.9] (2), mpi 1 s [1..1] (2); rma/mpi 0.90 (met: <= 1.1); "
            "rma ran on tcp",
            # medians 22.5 and 60 us: 2.7x (met); each launch's own 3.5 and 2
            "auto's 8 B get on a full node (a busy loop beside every rank, each host on 1 core of its own), "
            "medians of 2 launches [min..max]: "
            "quiet 22.5 us [20..25], busy 60 us [50..70]; busy/quiet 2.7x (met: <= 3x); each launch's 3.5 2 "
            "[worst 3.5]; auto ran tcp",
            # the link: 20 us quiet both launches, busy 60 and 50 -> 55 us, 2.8x; each 3 and 2.5
            "the link alone in the same passes (TCP socket round trip; busy: the better of polling and sleeping "
            "receivers), medians of 2 launches: quiet 20 us, busy 55 us; busy/quiet 2.8x; each launch's 3 2.5",
        ]
        if out.returncode != 0:
            failures.append(f"status {out.returncode}: {out.stderr}")
        for line in expected:
            if line not in text:
                failures.append(f"missing: {line!r}")
    if failures:
        print("FAIL:\n" + "\n".join(failures) + "\n--- output:\n" + text)
        return 1
    print("bench_cluster_report OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
