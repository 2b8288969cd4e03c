#!/usr/bin/env python3
"""The cross-host benchmark's verdict: reads the armada-bench.json of every launch of
scripts/bench-cluster.sh and prints, per transport, each headline figure as the median of its
launches' medians with the launch-to-launch spread, beside the MPI baselines and the link's own
limit (the plain TCP socket) of the same launches; then which transport was fastest for each
figure, and the issue's targets (docs/benchmarks.md, "Across emulated hosts").

    bench_cluster_report.py RESULTS_DIR     (RESULTS_DIR/launch-*/armada-bench.json, or
                                             launch-*/<transport>/armada-bench.json: one per transport)

Spread = max/min - 1 of the launches' medians; a figure whose spread exceeds 25 % is marked
"unstable". Then NAS MG and CG across the hosts (RESULTS_DIR/launch-*/apps/<app>.<comm>.json, the
programs' JSON lines): per program the median seconds of `--comm rma` and `--comm mpi` over the
launches and rma/mpi, against issue 50's target (<= 1.1x); a run that did not verify is named and
fails the row. Then auto's 8 B get on a full node (RESULTS_DIR/launch-*/full-node/{quiet,busy}/
armada-bench.json: the same launch without and with a busy loop beside every rank;
.../cores-per-host says how many cores each host had, or "shared"): the medians of the launches,
busy over quiet against issue 50's target (<= 3x) and each launch's own ratio; under it the link
alone in the same passes (the TCP socket's round trip, polling when quiet, the better of
polling and sleeping receivers when busy).
Exit status 0 when it printed a report, 2 when there was nothing to read.
"""
import glob
import json
from typing import NamedTuple
import re
import os
import statistics
import sys

from ratio_text import decisive

SPREAD_LIMIT = 0.25

# (label, family, op, metric, bytes, lower is better, method of Armada's figure)
FIGURES = [
    ("8 B put", "contig", "put", "latency", 8, True, "armada"),
    ("8 B put_notify seen", "contig", "notify", "latency", 8, True, "armada_notify_pingpong_half"),
    ("8 B get", "contig", "get", "latency", 8, True, "armada"),
    ("fetch-add", "atomic", "fetch_add", "latency", None, True, "armada"),
    ("8 B acc", "contig", "acc", "latency", 8, True, "armada"),
    ("1 MiB put", "contig", "put", "bandwidth", 1 << 20, False, "armada"),
    ("1 MiB get", "contig", "get", "bandwidth", 1 << 20, False, "armada"),
    ("get_nb overlap", "overlap", "get_nb", "overlap", None, False, "armada"),
]
# Issue 50's targets against the link (the plain TCP socket between the same ranks, measured in
# the same pass, its repetitions alternated with Armada's): (figure, the socket's figure it is
# divided by, the limit, True when the ratio must stay at or below it). A put (local completion)
# and a put_notify seen at the target against one one-way message; a get and a fetch-add against
# one round trip (two one-way messages), the fetch-add against the round trip timed beside the
# atomics where the pass has it (the link's speed drifts between the families of a launch:
# 20-28 us against 2 x 9-14 in the same launches, session 39); 1 MiB against the stream. Each
# launch's ratio is its own figure over its own socket's; the target is met by their median,
# and the worst launch is printed beside it.
TARGETS = [
    ("8 B put", "one-way", 1.5, True),
    ("8 B put_notify seen", "one-way", 1.5, True),
    ("8 B get", "round trip", 1.3, True),
    ("fetch-add", "round trip beside the atomics", 1.3, True),
    ("1 MiB put", "stream", 0.8, False),
    ("1 MiB get", "stream", 0.8, False),
]
# The socket's figure of each kind in one pass: (family, op, metric, bytes, method, factor), the
# first the pass measured.
LINK_FIGURES = {
    "one-way": [("contig", "sendrecv", "latency", 8, "socket_pingpong_half", 1)],
    "round trip": [("contig", "sendrecv", "latency", 8, "socket_pingpong_half", 2)],
    "round trip beside the atomics": [("atomic", "round_trip", "latency", 8, "socket_pingpong_rtt", 1),
                                      ("contig", "sendrecv", "latency", 8, "socket_pingpong_half", 2)],
    "stream": [("contig", "sendrecv", "bandwidth", 1 << 20, "socket_stream", 1)],
    # both receivers asleep in recv (armada-bench's contig family, latency sizes): what the link
    # gives on a full node, where Armada's waiters sleep too
    "round trip, receivers asleep": [("contig", "sendrecv", "latency", 8, "socket_pingpong_sleep_half", 2)],
}
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
    """One document per launch: its armada-bench.json, or the union of its transports' own
    launches (launch-<i>/<transport>/armada-bench.json: their results and runs, in order)."""
    launches = []
    for launch in sorted(glob.glob(os.path.join(results_dir, "launch-*"))):
        paths = [os.path.join(launch, "armada-bench.json")]
        if not os.path.exists(paths[0]):
            paths = sorted(glob.glob(os.path.join(launch, "*", "armada-bench.json")))
        docs = []
        for path in paths:
            with open(path) as f:
                docs.append(json.load(f))
        if docs:
            merged = dict(docs[0])
            merged["results"] = [r for d in docs for r in d["results"]]
            merged["runs"] = [r for d in docs for r in d["runs"]]
            launches.append(merged)
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
        for label, family, op, metric, size, lower, method in FIGURES:
            values = across(launches, t, family, op, metric, size, method)
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
            out.append(f"  {label:<20} {best[label][0]}")
    out += target_lines(launches, transports)
    return "\n".join(out)


def link_figure(doc, transport, kind):
    """The socket's figure of `kind` (LINK_FIGURES) in `transport`'s pass of one launch, or None."""
    for family, op, metric, size, method, factor in LINK_FIGURES[kind]:
        v = median_of(doc, transport, family, op, metric, size, method)
        if v is not None:
            return factor * v
    return None


def target_lines(launches, transports):
    """Each transport's ratios to the link, launch by launch: their median against the target,
    the worst launch beside it."""
    figure = {f[0]: f for f in FIGURES}
    socket = {kind: [v for d in launches for t in transports if (v := link_figure(d, t, kind)) is not None]
              for kind in LINK_FIGURES}
    if not socket["one-way"]:
        return []
    heading = ", ".join(f"{kind} {statistics.median(v):.4g} {'GB/s' if kind == 'stream' else 'us'}"
                        for kind, v in socket.items() if v)
    out = [f"\nTargets against the link, each launch's figure over its own socket's; median of the launches "
           f"[worst] (socket medians: {heading}):"]
    for t in transports:
        parts = []
        for label, against, limit, at_most in TARGETS:
            _, family, op, metric, size, _, method = figure[label]
            ratios = []
            for d in launches:
                v, link = median_of(d, t, family, op, metric, size, method), link_figure(d, t, against)
                if v is not None and link:
                    ratios.append(v / link)
            if ratios:
                r = statistics.median(ratios)
                worst = max(ratios) if at_most else min(ratios)
                met = r <= limit if at_most else r >= limit
                parts.append(f"{label} {decisive(r, limit, at_most, '.2g')}x {against} [{worst:.2g}] "
                             f"({'met' if met else 'missed'}: {'<=' if at_most else '>='} {limit:g}x)")
        out.append(f"  {t}: " + "; ".join(parts))
    return out


APP_TARGET = 1.1  # --comm rma at most 1.1x --comm mpi's time across hosts (issue 50)


def app_runs(results_dir):
    """{(benchmark, class, ranks, comm, asked): [the program's JSON line of each launch, with
    "transport": the inter-node transport its ARMADA_VERBOSE output (the .txt beside it) names, if
    any]}. `asked` is the ARMADA_TRANSPORT a `--comm rma` run was given when it named one ("" for
    auto, and for every `--comm mpi` run, which all the rma rows of a program are set against)."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(results_dir, "launch-*", "apps", "*.json"))):
        with open(path) as f:
            r = json.load(f)
        text_path = path[:-len(".json")] + ".txt"
        asked = ""
        if os.path.exists(text_path):
            with open(text_path, errors="replace") as f:
                found = re.search(r"inter-node transport: ([a-z-]+) \(ARMADA_TRANSPORT=([a-z-]+)", f.read())
            if found:
                r["transport"] = found.group(1)
                asked = "" if found.group(2) == "auto" or r["comm"] != "rma" else found.group(2)
        runs.setdefault((r["benchmark"], r["class"], r["ranks"], r["comm"], asked), []).append(r)
    return runs


def app_report(runs):
    out = []
    rows = sorted({(b, c, n, asked) for b, c, n, comm, asked in runs if comm == "rma"} |
                  {(b, c, n, "") for b, c, n, comm, _ in runs if comm == "mpi"})
    for bench, cls, ranks, asked in rows:
        rma, mpi = runs.get((bench, cls, ranks, "rma", asked), []), runs.get((bench, cls, ranks, "mpi", ""), [])
        unverified = sum(not r["verified"] for r in rma + mpi)
        cells = []
        for comm, rs in (("rma", rma), ("mpi", mpi)):
            t = [r["time_s"] for r in rs]
            cells.append(f"{comm} {statistics.median(t):.4g} s [{min(t):.4g}..{max(t):.4g}] ({len(t)})" if t else f"{comm} -")
        verdict = ""
        if unverified:
            verdict = f"; {unverified} run(s) NOT VERIFIED"
        elif rma and mpi:
            ratio = statistics.median(r["time_s"] for r in rma) / statistics.median(r["time_s"] for r in mpi)
            verdict = (f"; rma/mpi {decisive(ratio, APP_TARGET, True)} ({'met' if ratio <= APP_TARGET else 'missed'}: "
                       f"<= {APP_TARGET:g})")
        ran = sorted({r["transport"] for r in rma if "transport" in r})
        if ran:
            verdict += "; rma ran on " + ", ".join(ran)
        on = f" on {asked}" if asked else ""
        out.append(f"  {bench} class {cls}, {ranks} ranks{on}: " + ", ".join(cells) + verdict)
    return out


FULL_NODE_TARGET = 3.0  # auto's 8 B get with a busy process beside every rank: at most 3x its quiet figure


class FullNode(NamedTuple):
    """One launch's full-node pair: auto's 8 B get (us) quiet and busy, the transports auto ran,
    the TCP socket's round trip (us) in the same passes (None where a pass has none), and the cores
    each host had (launch-<i>/full-node/cores-per-host: a count, or "shared"; None before session 42)."""
    quiet: float
    busy: float
    ran: set
    link_quiet: float | None
    link_busy: float | None
    cores: str | None


def full_node_pairs(results_dir):
    """A FullNode for every launch with both full-node passes: auto's 8 B get median in
    launch-<i>/full-node/quiet and .../busy; the link's figure is the socket's round trip with
    polling receivers when quiet and the better of polling and sleeping receivers when busy."""
    _, family, op, metric, size, _, method = next(f for f in FIGURES if f[0] == "8 B get")
    pairs = []
    for launch in sorted(glob.glob(os.path.join(results_dir, "launch-*"))):
        figures, links, ran = [], [], set()
        for mode in ("quiet", "busy"):
            path = os.path.join(launch, "full-node", mode, "armada-bench.json")
            if os.path.exists(path):
                with open(path) as f:
                    doc = json.load(f)
                figures.append(median_of(doc, "auto", family, op, metric, size, method))
                ways = ("round trip",) if mode == "quiet" else ("round trip", "round trip, receivers asleep")
                link = [v for kind in ways if (v := link_figure(doc, "auto", kind)) is not None]
                links.append(min(link) if link else None)
                ran |= {run["route"] for run in doc["runs"] if run["status"] == "ok" and run.get("route")}
        cores_file = os.path.join(launch, "full-node", "cores-per-host")
        cores = open(cores_file).read().strip() if os.path.exists(cores_file) else None
        if len(figures) == 2 and None not in figures:
            pairs.append(FullNode(figures[0], figures[1], ran, links[0], links[1], cores))
    return pairs


def full_node_line(pairs):
    """The verdict: the busy launches' median over the quiet ones', and each launch's own ratio."""
    quiet, busy = [p.quiet for p in pairs], [p.busy for p in pairs]
    ratio = statistics.median(busy) / statistics.median(quiet)
    each = [p.busy / p.quiet for p in pairs]
    ran = sorted(set().union(*(p.ran for p in pairs)))
    cores = {p.cores for p in pairs}
    where = ""
    if len(cores) > 1:
        where = ", cores per host " + "/".join(sorted(c or "?" for c in cores))
    elif cores == {"shared"}:
        where = ", the hosts sharing the cores"
    elif None not in cores:
        n = next(iter(cores))
        where = f", each host on {n} core{'' if n == '1' else 's'} of its own"
    line = (f"auto's 8 B get on a full node (a busy loop beside every rank{where}), medians of {len(pairs)} launches "
            f"[min..max]: quiet {statistics.median(quiet):.4g} us [{min(quiet):.4g}..{max(quiet):.4g}], busy "
            f"{statistics.median(busy):.4g} us [{min(busy):.4g}..{max(busy):.4g}]; busy/quiet "
            f"{decisive(ratio, FULL_NODE_TARGET, True, '.2g')}x ({'met' if ratio <= FULL_NODE_TARGET else 'missed'}: "
            f"<= {FULL_NODE_TARGET:g}x); each launch's "
            + " ".join(f"{r:.2g}" for r in each) + f" [worst {max(each):.2g}]"
            + (f"; auto ran {', '.join(ran)}" if ran else ""))
    links = [(p.link_quiet, p.link_busy) for p in pairs if p.link_quiet and p.link_busy]
    if not links:
        return line
    link_quiet, link_busy = statistics.median(q for q, _ in links), statistics.median(b for _, b in links)
    return (line + f"\nthe link alone in the same passes (TCP socket round trip; busy: the better of polling and "
            f"sleeping receivers), medians of {len(links)} launches: quiet {link_quiet:.4g} us, busy "
            f"{link_busy:.4g} us; busy/quiet {link_busy / link_quiet:.2g}x; each launch's "
            + " ".join(f"{b / q:.2g}" for q, b in links))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    launches = load(sys.argv[1])
    if not launches:
        print(f"bench_cluster_report.py: no launch-*/armada-bench.json under {sys.argv[1]}", file=sys.stderr)
        return 2
    print(report(launches))
    apps = app_runs(sys.argv[1])
    if apps:
        print("\nNAS programs across the hosts (the programs' own times, medians of the launches [min..max] (runs)):")
        print("\n".join(app_report(apps)))
    pairs = full_node_pairs(sys.argv[1])
    if pairs:
        print("\n" + full_node_line(pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
