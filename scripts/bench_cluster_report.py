#!/usr/bin/env python3
"""The cross-host benchmark's verdict: reads the armada-bench.json of every launch of
scripts/bench-cluster.sh and prints, per transport, each headline figure as the median of its
launches' medians with the launch-to-launch spread, beside the MPI baselines and the link's own
limit (the plain TCP socket) of the same launches; then which transport was fastest for each
figure, and the issue's targets (docs/benchmarks.md, "Across emulated hosts").

    bench_cluster_report.py RESULTS_DIR     (RESULTS_DIR/launch-*/armada-bench.json)

Spread = max/min - 1 of the launches' medians; a figure whose spread exceeds 25 % is marked
"unstable". Exit status 0 when it printed a report, 2 when there was nothing to read.
"""
import glob
import json
import os
import statistics
import sys

SPREAD_LIMIT = 0.25

# (label, family, op, metric, bytes, method of Armada's figure, lower is better)
FIGURES = [
    ("8 B put", "contig", "put", "latency", 8, True),
    ("8 B get", "contig", "get", "latency", 8, True),
    ("fetch-add", "atomic", "fetch_add", "latency", None, True),
    ("8 B acc", "contig", "acc", "latency", 8, True),
    ("1 MiB put", "contig", "put", "bandwidth", 1 << 20, False),
    ("1 MiB get", "contig", "get", "bandwidth", 1 << 20, False),
    ("get_nb overlap", "overlap", "get_nb", "overlap", None, False),
]
# The baselines of the same launch: (label, family, op, metric, bytes, method)
BASELINES = [
    ("TCP socket one-way 8 B", "contig", "sendrecv", "latency", 8, "socket_pingpong_half"),
    ("TCP socket stream 1 MiB", "contig", "sendrecv", "bandwidth", 1 << 20, "socket_stream"),
    ("MPI send/recv one-way 8 B", "contig", "sendrecv", "latency", 8, "mpi_pingpong_half"),
    ("MPI send/recv stream 1 MiB", "contig", "sendrecv", "bandwidth", 1 << 20, "mpi_stream"),
    ("MPI put + flush 8 B", "contig", "put", "latency", 8, "mpi_put_flush"),
    ("MPI get + flush 8 B", "contig", "get", "latency", 8, "mpi_get_flush"),
    ("MPI fetch_and_op", "atomic", "fetch_add", "latency", None, "mpi_fetch_and_op"),
    ("MPI put + flush 1 MiB", "contig", "put", "bandwidth", 1 << 20, "mpi_put_flush"),
    ("MPI get + flush 1 MiB", "contig", "get", "bandwidth", 1 << 20, "mpi_get_flush"),
]


def load(results_dir):
    launches = []
    for path in sorted(glob.glob(os.path.join(results_dir, "launch-*", "armada-bench.json"))):
        with open(path) as f:
            launches.append(json.load(f))
    return launches


def median_of(doc, transport, family, op, metric, size, method, x=None):
    """The median of one record of `transport`'s pass, or None."""
    for r in doc["results"]:
        if (r["transport"] == transport and r["family"] == family and r["op"] == op and r["metric"] == metric
                and r["method"] == method and (size is None or r["bytes"] == size) and (x is None or r["x"] == x)):
            return r["median"]
    return None


def across(launches, transport, family, op, metric, size, method):
    """The launches' medians of one figure (those that measured it)."""
    x = 100 if metric == "overlap" else None  # overlap: the computation as long as the blocking get
    values = [median_of(d, transport, family, op, metric, size, method, x) for d in launches]
    return [v for v in values if v is not None]


def cell(values, unit):
    if not values:
        return "-"
    mid = statistics.median(values)
    lo, hi = min(values), max(values)
    spread = hi / lo - 1 if lo > 0 else float("inf")
    flag = " unstable" if spread > SPREAD_LIMIT else ""
    return f"{mid:.4g} {unit} [{lo:.4g}..{hi:.4g}] spread {spread * 100:.0f}%{flag}"


def unit_of(metric):
    return {"latency": "us", "bandwidth": "GB/s", "overlap": "%"}[metric]


def transports_of(launches):
    seen = []
    for d in launches:
        for run in d["runs"]:
            if run["status"] == "ok" and run["transport"] not in seen:
                seen.append(run["transport"])
    return seen


def report(launches):
    out = []
    loads = [(run.get("loadavg_start"), run.get("loadavg_end")) for d in launches for run in d["runs"]]
    out.append(f"{len(launches)} launches; load average during the passes "
               f"{min(l for pair in loads for l in pair if l is not None):.2f}.."
               f"{max(l for pair in loads for l in pair if l is not None):.2f}")
    transports = transports_of(launches)
    best = {}
    for t in transports:
        out.append(f"\n== {t} (medians of {len(launches)} launches' medians, [min..max] of them)")
        for label, family, op, metric, size, lower in FIGURES:
            values = across(launches, t, family, op, metric, size, "armada")
            out.append(f"  armada {label:<28} {cell(values, unit_of(metric))}")
            if values:
                mid = statistics.median(values)
                if label not in best or (mid < best[label][1] if lower else mid > best[label][1]):
                    best[label] = (t, mid)
        for label, family, op, metric, size, method in BASELINES:
            values = across(launches, t, family, op, metric, size, method)
            if values:
                out.append(f"  {label:<35} {cell(values, unit_of(metric))}")
    out.append("\nFastest transport per figure (median of the launches):")
    for label, *_ in FIGURES:
        if label in best:
            out.append(f"  {label:<16} {best[label][0]}")
    socket_one_way = [statistics.median(v) for t in transports
                      if (v := across(launches, t, "contig", "sendrecv", "latency", 8, "socket_pingpong_half"))]
    socket_stream = [statistics.median(v) for t in transports
                     if (v := across(launches, t, "contig", "sendrecv", "bandwidth", 1 << 20, "socket_stream"))]
    if socket_one_way and socket_stream:
        one_way, stream = statistics.median(socket_one_way), statistics.median(socket_stream)
        out.append(f"\nTargets against the link (socket one-way {one_way:.4g} us, stream {stream:.4g} GB/s):")
        for t in transports:
            parts = []
            for label, family, op, metric, size, _ in FIGURES[:3]:
                v = across(launches, t, family, op, metric, size, "armada")
                if v:
                    r = statistics.median(v) / one_way
                    parts.append(f"{label} {r:.2g}x one-way ({'met' if r <= 2 else 'missed'}: <= 2x)")
            for label, family, op, metric, size, _ in FIGURES[4:6]:
                v = across(launches, t, family, op, metric, size, "armada")
                if v:
                    r = statistics.median(v) / stream
                    parts.append(f"{label} {r:.2g}x stream ({'met' if r >= 0.8 else 'missed'}: >= 0.8x)")
            out.append(f"  {t}: " + "; ".join(parts))
    return "\n".join(out)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    launches = load(sys.argv[1])
    if not launches:
        print(f"bench_cluster_report.py: no launch-*/armada-bench.json under {sys.argv[1]}", file=sys.stderr)
        return 2
    print(report(launches))
    return 0


if __name__ == "__main__":
    sys.exit(main())
