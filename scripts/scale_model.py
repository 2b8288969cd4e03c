#!/usr/bin/env python3
"""The scaling model (issue 53, docs/scaling.md): reads armada-scale's JSON lines, fits each
metric per transport to terms of the job's size, checks the fit by leaving out the largest run,
predicts 1k, 10k and 100k ranks, and draws the measurements against P (gnuplot, PNG).

    scripts/scale_model.py results/scale-X/scale.jsonl --out results/scale-X

writes model.md (the fits, the leave-out check, the predictions and each one's dominant term),
model.json (the same, machine-readable) and scale.png. Measured values come from the file;
everything at 1k ranks and beyond is modelled and says so. No numpy: a 3-term least squares is
solved directly.
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys

# Metric -> (terms, how the figure is taken from a record, unit). Terms are functions of
# (P ranks, N nodes). The growth after the arrays and the groups is for the run's counts (its
# "arrays" and "groups" fields: 100 and 1,000 in the standard sweep).
TERMS = {
    "1": lambda p, n: 1.0,
    "P": lambda p, n: float(p),
    "N": lambda p, n: float(n),
    "log2P": lambda p, n: math.log2(p) if p > 1 else 0.0,
}

METRICS = {
    "heap_growth_init": (["1", "P", "N"], "max", "B"),
    # init's RSS also holds the MPI library's mappings of the peers its collectives contact,
    # O(log P) (rank 0 maps 12 peers' shared-memory segments at 16 ranks, 22 at 64; docs/scaling.md,
    # fifth round): a log term, which the subset search takes only where it fits better.
    "rss_growth_init": (["1", "P", "N", "log2P"], "max", "B"),
    # The same without file-backed pages (RssAnon + RssShmem; armada-scale's Memory): the
    # summary's figure where a run has it.
    "rss_nofile_growth_init": (["1", "P", "N", "log2P"], "max", "B"),
    "rss_nofile_growth_arrays": (["1", "P"], "max", "B"),
    "rss_nofile_growth_groups": (["1", "P"], "max", "B"),
    "heap_growth_arrays": (["1", "P"], "max", "B"),
    "rss_growth_arrays": (["1", "P"], "max", "B"),
    "heap_growth_groups": (["1", "P"], "max", "B"),
    "rss_growth_groups": (["1", "P"], "max", "B"),
    "init_s": (["1", "P", "log2P"], "max", "s"),
    "init_cpu_s": (["1", "P", "log2P"], "max", "s"),
    "fence_all_clean_s": (["1", "P", "log2P"], "max", "s"),
    "fence_all_after_k_puts_s": (["1", "P", "log2P"], "max", "s"),
    "fence_all_only_after_k_puts_s": (["1", "P", "log2P"], "max", "s"),
    "barrier_s": (["1", "P", "log2P"], "max", "s"),
    "agree_s": (["1", "P", "log2P"], "max", "s"),
}
PREDICT_AT = [1000, 10000, 100000]


def solve(rows, ys):
    """Least squares by the normal equations (Gaussian elimination); None if singular."""
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(k)] + [sum(r[i] * y for r, y in zip(rows, ys))] for i in range(k)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(a[r][c]))
        if abs(a[piv][c]) < 1e-12:
            return None
        a[c], a[piv] = a[piv], a[c]
        for r in range(k):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][k] / a[i][i] for i in range(k)]


def fit(points, terms):
    """Non-negative least squares over the subsets of `terms` (a cost never shrinks with P):
    the subset with the smallest residual whose coefficients are all >= 0."""
    best = None
    for m in range(1, len(terms) + 1):
        for sub in itertools.combinations(terms, m):
            rows = [[TERMS[t](p, n) for t in sub] for p, n, _ in points]
            if len({tuple(r) for r in rows}) < len(sub):
                continue
            c = solve(rows, [y for _, _, y in points])
            if c is None or any(x < 0 for x in c):
                continue
            res = sum((sum(ci * ri for ci, ri in zip(c, r)) - y) ** 2 for r, (_, _, y) in zip(rows, points))
            if best is None or res < best[0] - 1e-9 * abs(best[0]):
                best = (res, dict(zip(sub, c)))
    return best[1] if best else {"1": 0.0}


def predict(model, p, n):
    return {t: c * TERMS[t](p, n) for t, c in model.items()}


def load(path):
    recs = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                recs.append(json.loads(line))
    return recs


def series(recs):
    """{(transport, node_size): {metric: [(P, N, value, load1)]}} with per-array/per-group figures."""
    counts = {}
    out = {}
    for r in recs:
        key = (r["transport"], r["node_size"] if r["transport"] != "none" else 0)
        m = r["metric"]
        if m not in METRICS:
            continue
        if r["transport"] != "none" and r["nodes"] < 2:
            continue  # one node: the inter-node transport did not start, a different program
        v = r[METRICS[m][1]]
        out.setdefault(key, {}).setdefault(m, []).append((r["ranks"], r["nodes"], v, r.get("load1", -1)))
    return out


def analyse(data):
    """Fit, leave-out check and predictions for every (configuration, metric)."""
    result = []
    for key, metrics in sorted(data.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        transport, node_size = key
        for m, pts in sorted(metrics.items()):
            pts = sorted(pts)
            terms, _, unit = METRICS[m]
            model = fit([(p, n, y) for p, n, y, _ in pts], terms)
            largest = max(p for p, _, _, _ in pts)
            rest = [(p, n, y) for p, n, y, _ in pts if p < largest]
            check = None
            if len({p for p, _, _ in rest}) >= 2:
                held = fit(rest, terms)
                for p, n, y, _ in pts:
                    if p == largest:
                        guess = sum(predict(held, p, n).values())
                        check = {"ranks": p, "measured": y, "modelled": guess,
                                 "error_pct": 100.0 * (guess - y) / y if y else None}
            preds = []
            for p in PREDICT_AT:
                nodes = p if node_size == 0 else math.ceil(p / node_size)
                parts = predict(model, p, nodes)
                dominant = max(parts, key=lambda t: parts[t]) if parts else "1"
                preds.append({"ranks": p, "nodes": nodes, "modelled": sum(parts.values()), "dominant": dominant,
                              "terms": parts})
            result.append({"transport": transport, "node_size": node_size, "metric": m, "unit": unit,
                           "model": model, "measured": [{"ranks": p, "nodes": n, "value": y, "load1": l} for p, n, y, l in pts],
                           "leave_largest_out": check, "predictions": preds})
    return result


def human(v, unit):
    if v is None:
        return "-"
    if unit == "B":
        for u, s in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
            if abs(v) >= s:
                return f"{v / s:.3g} {u}"
        return f"{v:.3g} B"
    if abs(v) < 1e-3:
        return f"{v * 1e6:.3g} us"
    if abs(v) < 1:
        return f"{v * 1e3:.3g} ms"
    return f"{v:.3g} s"


def formula(model, unit):
    return " + ".join(f"{human(c, unit)}" + ("" if t == "1" else f"·{t}") for t, c in model.items())


SUMMED = ["rss_growth_init", "rss_growth_arrays", "rss_growth_groups"]
# Preferred where a configuration has them: the resident set without file-backed pages.
SUMMED_NOFILE = ["rss_nofile_growth_init", "rss_nofile_growth_arrays", "rss_nofile_growth_groups"]


def summary(result):
    """Per configuration: modelled resident memory Armada adds (init + the arrays + the groups,
    each the max over ranks) and init time, at each predicted size, with the largest term."""
    rows = {}
    nofile = {(r["transport"], r["node_size"]) for r in result if r["metric"] in SUMMED_NOFILE}
    for r in result:
        key = (r["transport"], r["node_size"])
        summed = SUMMED_NOFILE if key in nofile else SUMMED
        for i, p in enumerate(r["predictions"]):
            cell = rows.setdefault(key, {}).setdefault(p["ranks"], {"memory": 0.0, "terms": {}, "init_s": None})
            if r["metric"] in summed:
                cell["memory"] += p["modelled"]
                for t, v in p["terms"].items():
                    cell["terms"][f"{r['metric']}:{t}"] = v
            elif r["metric"] == "init_cpu_s":
                cell["init_s"] = p["modelled"]
    return rows


def write_summary(f, result):
    f.write("\n## Summary: modelled memory added per rank (init + arrays + groups, RSS without file-backed "
            "pages where the run has it, else RSS) and init time "
            "(the main thread's CPU time in rma::init; the wall time on this machine is load-bound)\n\n")
    f.write("| transport | node size | " + " | ".join(f"{p // 1000}k: memory, init" for p in PREDICT_AT)
            + " | largest memory term at 100k |\n|---|---|" + "---|" * (len(PREDICT_AT) + 1) + "\n")
    for (transport, ns), cells in sorted(summary(result).items()):
        parts = [f"{human(cells[p]['memory'], 'B')}, {human(cells[p]['init_s'], 's')}" for p in PREDICT_AT]
        terms = cells[PREDICT_AT[-1]]["terms"]
        top = max(terms, key=terms.get) if terms else "-"
        f.write(f"| {transport} | {ns} | " + " | ".join(parts) + f" | {top} ({human(terms.get(top), 'B')}) |\n")


def write_markdown(result, path):
    with open(path, "w") as f:
        f.write("# armada-scale model (generated by scripts/scale_model.py)\n\n")
        f.write("Fitted to the measured runs (max over ranks); values at 1k ranks and beyond are MODELLED.\n"
                "P = ranks, N = nodes (virtual nodes of node_size ranks; node_size 0: one node of all ranks).\n\n")
        f.write("| transport | node size | metric | fit | largest run: measured / modelled without it (error) |"
                " 1k (modelled) | 10k (modelled) | 100k (modelled) | dominant at 100k |\n")
        f.write("|---|---|---|---|---|---|---|---|---|\n")
        for r in result:
            u = r["unit"]
            c = r["leave_largest_out"]
            chk = "-" if not c else (f"P={c['ranks']}: {human(c['measured'], u)} / {human(c['modelled'], u)}"
                                     + (f" ({c['error_pct']:+.0f} %)" if c["error_pct"] is not None else ""))
            preds = [human(p["modelled"], u) for p in r["predictions"]]
            f.write(f"| {r['transport']} | {r['node_size']} | {r['metric']} | {formula(r['model'], u)} | {chk} | "
                    + " | ".join(preds) + f" | {r['predictions'][-1]['dominant']} |\n")
        write_summary(f, result)


PANELS = [("rss_growth_init", "RSS added by rma::init (max over ranks)", "MiB", 2**20),
          ("heap_growth_init", "heap added by rma::init (max over ranks)", "MiB", 2**20),
          ("heap_growth_groups", "heap added by the groups (max)", "MiB", 2**20),
          ("rss_growth_arrays", "RSS added by the arrays (max)", "MiB", 2**20),
          ("rss_growth_groups", "RSS added by the groups (max)", "MiB", 2**20),
          ("init_s", "rma::init wall time (max; load-bound here)", "s", 1),
          ("init_cpu_s", "rma::init, main thread CPU time (max)", "s", 1),
          ("fence_all_after_k_puts_s", "k puts then fence_all, timed together (median, max over ranks)", "us", 1e-6),
          ("fence_all_only_after_k_puts_s", "fence_all alone after puts to k peers", "us", 1e-6),
          ("fence_all_clean_s", "fence_all, nothing written", "us", 1e-6),
          ("barrier_s", "rma::barrier", "us", 1e-6),
          ("agree_s", "rma::agree", "us", 1e-6)]


def plot(result, out_dir, title):
    """scale.png: one panel per metric, one line per transport and node size, against P."""
    datafile = os.path.join(out_dir, "scale.dat")
    blocks = []
    with open(datafile, "w") as f:
        for metric, _, _, scale in PANELS:
            for r in result:
                if r["metric"] != metric:
                    continue
                label = r["transport"] + ("" if r["node_size"] == 0 else f" ns={r['node_size']}")
                f.write(f"# {metric} {label}\n")
                for m in r["measured"]:
                    f.write(f"{m['ranks']} {m['value'] / scale}\n")
                f.write("\n\n")
                blocks.append((metric, label))
    style = {label: n + 1 for n, label in enumerate(sorted({b[1] for b in blocks}))}  # one colour per configuration
    gp = [f"set terminal pngcairo size 1800,1900 font ',9'", f"set output '{os.path.join(out_dir, 'scale.png')}'",
          f"set multiplot layout 4,3 title '{title}'", "set logscale x 2", "set key top left font ',7'",
          "set xlabel 'ranks P'", "set grid", "set termoption noenhanced"]
    for metric, text, unit, _ in PANELS:
        idx = [i for i, b in enumerate(blocks) if b[0] == metric]
        gp.append(f"set title '{text}'")
        # Times span decades (and an oversubscribed machine adds outliers): log scale.
        gp.append("set logscale y 10" if unit in ("s", "us") else "unset logscale y")
        gp.append(f"set ylabel '{unit}" + (" (log)" if unit in ("s", "us") else "") + "'")
        if not idx:  # not in this sweep (an older armada-scale)
            gp.append("unset logscale y")
            gp.append("plot 0 title 'not measured in this sweep'")
            continue
        gp.append("plot " + ", ".join(f"'{datafile}' index {i} with linespoints lt {style[blocks[i][1]]} title '{blocks[i][1]}'"
                                      for i in idx))
    gp.append("unset multiplot")
    script = os.path.join(out_dir, "scale.gp")
    with open(script, "w") as f:
        f.write("\n".join(gp) + "\n")
    subprocess.run(["gnuplot", script], check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("jsonl")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="armada-scale: per-rank cost against ranks (measured on 2 cores, oversubscribed: times are load-bound)")
    ap.add_argument("--no-plot", action="store_true")
    a = ap.parse_args()
    result = analyse(series(load(a.jsonl)))
    if not result:
        print("scale_model.py: no armada-scale records in " + a.jsonl, file=sys.stderr)
        return 1
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "model.json"), "w") as f:
        json.dump(result, f, indent=1)
    write_markdown(result, os.path.join(a.out, "model.md"))
    if not a.no_plot:
        plot(result, a.out, a.title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
