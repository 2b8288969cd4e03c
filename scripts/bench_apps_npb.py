#!/usr/bin/env python3
"""Tables of scripts/bench-apps.sh (standard library only).

  bench_apps_npb.py NPB.JSONL OUT.md [--rows-json ROWS.JSONL] [--load-before L] [--load-after L] [--note TEXT]
      MG and CG beside NPB: reads every launch's log, checks its verification (NPB's
      "Verification = SUCCESSFUL", Armada's JSON "verified": true, exit code 0), and writes per
      (app, class, ranks, binding) the median time with [min..max] of NPB, armada --comm rma and
      --comm mpi, the ratios (median, the worst launch, every launch's) and each one's ratio to
      the memory floor Armada's programs measured in the same repetition. A target is met only
      when it is met in the worst launch. Exit 1 when a launch failed or did not verify.
  bench_apps_npb.py --cases RESULTS.JSONL OUT.md MEDIANS.DAT [--rows-json ROWS.JSONL]
      the bench-cases.txt programs: median time, min-max, median rate per case, and each ratio
      a program reports to what ran beside it ("vs_<impl>") per launch with the worst launch's.
ROWS.JSONL: one JSON object per row, with every launch's ratios, the worst and the verdicts.
"""
import argparse
import collections
import json
import re
import statistics
import subprocess

from ratio_text import decisive

# Issues 33 and 54's targets: Armada's time / NPB's time at 2 ranks, classes A and B, in the worst
# launch; CG may instead be within FLOOR_MARGIN of the memory floor where NPB is not.
TARGETS = {"mg": 0.85, "cg": 0.9}
FLOOR_MARGIN = {"cg": 1.1}
TARGET_RANKS = 2
TARGET_CLASSES = ("A", "B")
IMPLS = ("npb", "rma", "mpi")
# Issue 54's targets of the bench-cases.txt programs: a ratio "vs_<impl>" of the program's JSON
# (higher is better: GF/s over GF/s) at least this much in the worst launch, for the cases whose
# command holds every given word.
CASE_TARGETS = [
    {"benchmark": "CCSD", "words": ["--occ 24 "], "key": "vs_dgemm", "min": 0.85},
    {"benchmark": "CCSD", "words": ["--occ 32 "], "key": "vs_dgemm", "min": 0.85},
    {"benchmark": "CCSD", "words": ["--occ 24 "], "key": "vs_ga-tce", "min": 1.2},
    {"benchmark": "CCSD", "words": ["--occ 32 "], "key": "vs_ga-tce", "min": 1.2},
]


def npb_result(text):
    """(time_s, verified, mops) of an NPB report."""
    time = re.search(r"^\s*Time in seconds\s*=\s*([0-9.Ee+-]+)", text, re.M)
    mops = re.search(r"^\s*Mop/s total\s*=\s*([0-9.Ee+-]+)", text, re.M)
    verified = re.search(r"^\s*Verification\s*=\s*SUCCESSFUL", text, re.M) is not None
    return (float(time.group(1)) if time else None), verified, (float(mops.group(1)) if mops else None)


def armada_json(text):
    """An Armada program's result: its last JSON line ({} without one)."""
    lines = [l for l in text.splitlines() if l.startswith("{") and l.endswith("}")]
    return json.loads(lines[-1]) if lines else {}


def armada_result(text):
    """(time_s, verified, mops) of an Armada NPB program (its last JSON line)."""
    r = armada_json(text)
    if not r:
        return None, False, None
    return r.get("time_s"), r.get("verified") is True, r.get("mops")


def refine_npb_times(launches):
    """NPB prints its time with 2 decimals (0.24 s: 4 % steps) but its Mop/s with 6 or more
    digits. Armada's programs count operations with NPB's formula, so Armada's time x Mop/s of the
    same (app, class) is NPB's operation count, and that count / NPB's Mop/s is NPB's time to the
    digits of its Mop/s. Used only where the count agrees with NPB's printed time x Mop/s within
    that time's rounding (half a hundredth); the launch records which time it carries."""
    ops = {}
    for l in launches:
        if l["impl"] != "npb" and l.get("mops") and l.get("time_s") and "failure" not in l:
            ops.setdefault((l["app"], l["class"]), l["time_s"] * l["mops"])
    for l in launches:
        count = ops.get((l["app"], l["class"]))
        if l["impl"] != "npb" or "failure" in l or not count or not l.get("mops"):
            continue
        precise = count / l["mops"]
        if abs(precise - l["time_s"]) <= 0.005 + 1e-9:
            l["time_s"], l["time_from_mops"] = precise, True


def read_launches(path):
    """Every launch with its time, or the reason it gives no figure."""
    launches = []
    for line in open(path).read().splitlines():
        l = json.loads(line)
        try:
            text = open(l["log"], errors="replace").read()
        except OSError:
            text = ""
        time, verified, mops = (npb_result if l["impl"] == "npb" else armada_result)(text)
        l["time_s"], l["mops"] = time, mops
        if l["impl"] != "npb":
            floor = armada_json(text).get("floor_s")  # the memory floor measured in this launch
            if isinstance(floor, (int, float)) and floor > 0:
                l["floor_s"] = floor
        if l["exit"] != 0:
            l["failure"] = f"exit code {l['exit']}"
        elif time is None:
            l["failure"] = "no time in its output"
        elif not verified:
            l["failure"] = "verification failed"
        launches.append(l)
    refine_npb_times(launches)
    return launches


def lscpu():
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        return {}
    return dict((k.strip(), v.strip()) for k, _, v in (l.partition(":") for l in text.splitlines()) if v)


def cpu_line():
    c = lscpu()
    cores = "?"
    if c.get("Core(s) per socket") and c.get("Socket(s)"):
        cores = int(c["Core(s) per socket"]) * int(c["Socket(s)"])
    caches = ", ".join(f"{k.split()[0]} {c[k]}" for k in ("L1d cache", "L2 cache", "L3 cache") if k in c)
    return (f"{c.get('Model name', 'unknown CPU')} ({c.get('Vendor ID', '?')}), {cores} cores, "
            f"{c.get('Thread(s) per core', '?')} thread(s) per core, {c.get('CPU(s)', '?')} CPUs; {caches}")


def launcher_line():
    try:
        out = subprocess.run(["mpiexec", "--version"], capture_output=True, text=True).stdout
        return out.splitlines()[0] if out else "mpiexec"
    except OSError:
        return "mpiexec"


def spread(times, fmt=".3f"):
    return f"{statistics.median(times):{fmt}} [{min(times):{fmt}}..{max(times):{fmt}}]"


def launch_ratios(rows, num, den):
    """{repetition: num's time / den's time} of the repetitions where both have a figure (paired
    launches of the same repetition). den may be "floor": the memory floor of that repetition."""
    return {r: rows[num][r] / rows[den][r] for r in sorted(rows[num]) if r in rows.get(den, {}) and rows[den][r] > 0}


def ratio(rows, num, den):
    """(cell, median ratio, per-launch ratios): the ratio of the medians, then the worst launch's
    ratio (the highest: a time ratio) and every launch's in repetition order."""
    if not rows.get(num) or not rows.get(den):
        return "-", None, {}
    if statistics.median(rows[den].values()) <= 0:
        return "- (median 0 s)", None, {}
    med = statistics.median(rows[num].values()) / statistics.median(rows[den].values())
    paired = launch_ratios(rows, num, den)
    if not paired:
        return f"{med:.2f}", med, paired
    each = " ".join(f"{v:.2f}" for v in paired.values())
    return f"{med:.2f} (worst {max(paired.values()):.2f}; {each})", med, paired


def row_verdicts(app, cls, ranks, rows):
    """Issues 33/54's targets of a row (2 ranks, classes A and B only), each judged in the worst
    launch: [(name, met, worst ratio, the ratio's limit)]."""
    if ranks != TARGET_RANKS or cls not in TARGET_CLASSES:
        return []
    verdicts = []
    vs_npb = launch_ratios(rows, "rma", "npb")
    if vs_npb:
        target, margin = TARGETS[app], FLOOR_MARGIN.get(app)
        rma_floor, npb_floor = launch_ratios(rows, "rma", "floor"), launch_ratios(rows, "npb", "floor")

        def met_in(r):  # ahead of NPB, or (CG) at the floor while NPB is not
            at_floor = margin is not None and r in rma_floor and r in npb_floor and \
                rma_floor[r] <= margin < npb_floor[r]
            return vs_npb[r] <= target or at_floor
        name = f"rma/NPB ≤ {target}" + (f" or rma/floor ≤ {margin} < NPB/floor" if margin else "")
        verdicts.append((name, all(met_in(r) for r in vs_npb), max(vs_npb.values()), target))
    vs_mpi = launch_ratios(rows, "rma", "mpi")
    if vs_mpi:
        verdicts.append(("rma ≤ mpi", max(vs_mpi.values()) <= 1.0, max(vs_mpi.values()), 1.0))
    return verdicts


def target_cell(verdicts):
    return "; ".join(f"{name}: {'met' if ok else 'MISSED'} (worst launch {decisive(worst, limit, True)})"
                     for name, ok, worst, limit in verdicts)


def npb_table(args):
    launches = read_launches(args.jsonl)
    groups = collections.OrderedDict()
    for l in launches:
        key = (l["app"], l["class"], l["ranks"], l["bind"])
        groups.setdefault(key, {i: {} for i in IMPLS + ("floor",)})
        if "failure" not in l:
            groups[key][l["impl"]][l["repetition"]] = l["time_s"]
            if "floor_s" in l:  # the repetition's floor: the best of its Armada launches' measurements
                floors = groups[key]["floor"]
                floors[l["repetition"]] = min(floors.get(l["repetition"], l["floor_s"]), l["floor_s"])
    failures = [l for l in launches if "failure" in l]
    npb = [l for l in launches if l["impl"] == "npb" and "failure" not in l]
    refined = sum(1 for l in npb if l.get("time_from_mops"))
    reps = max((l["repetition"] for l in launches), default=0)
    with open(args.out, "w") as t:
        t.write("# MG and CG beside NPB 3.4 (same launch, alternating)\n\n")
        t.write(f"- CPU: {cpu_line()}\n")
        t.write(f"- launcher: {launcher_line()}; binding \"default\" passes no --bind-to (the launcher's "
                "default), \"none\" passes --bind-to none; the same binding for NPB and Armada in a row\n")
        t.write(f"- reference: {args.note}\n")
        t.write(f"- load average (1, 5, 15 min) before: {args.load_before}; after: {args.load_after}\n")
        t.write(f"- {reps} repetition(s) per row; each repetition runs NPB, armada --comm rma and --comm mpi "
                "(order rotated); times are the benchmarks' timed sections in seconds, "
                "median [min..max]; ratios are of the medians, then (worst launch; every launch's ratio, "
                "repetition by repetition: the launches of one repetition paired); below 1 Armada is faster; "
                "a target is met only if it is met in the worst launch\n")
        t.write("- floor: the memory floor of the timed section (the bytes it must move at the node's "
                "copy/triad bandwidth for that volume, docs/apps.md), measured by Armada's programs in each "
                "repetition (the better of its rma and mpi launches); NPB/floor uses the same repetition's floor\n")
        t.write(f"- NPB prints its time with 2 decimals; {refined} of its {len(npb)} launches carry the time "
                "its Mop/s gives instead (NPB's operation count, from Armada's time x Mop/s of the same class, "
                "/ NPB's Mop/s; only where that agrees with the printed time to its rounding)\n\n")
        t.write("| app | class | ranks | binding | NPB (s) | armada rma (s) | armada mpi (s) | rma/NPB | mpi/NPB "
                "| rma/mpi | floor (s) | rma/floor | NPB/floor | target (issues 33, 54; worst launch) |\n")
        t.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        pairs = (("rma", "npb"), ("mpi", "npb"), ("rma", "mpi"), ("rma", "floor"), ("npb", "floor"))
        row_lines = []
        for (app, cls, ranks, bind), rows in groups.items():
            cells = [spread(list(rows[i].values())) if rows[i] else "-" for i in IMPLS]
            computed = {f"{a}/{b}": ratio(rows, a, b) for a, b in pairs}
            floor = spread(list(rows["floor"].values()), ".4g") if rows["floor"] else "-"  # class S: 0.0002 s
            verdicts = row_verdicts(app, cls, ranks, rows)
            cols = [c[0] for k, c in computed.items() if not k.endswith("floor")] + [floor] + \
                [c[0] for k, c in computed.items() if k.endswith("floor")]
            t.write(f"| {app.upper()} | {cls} | {ranks} | {bind} | " + " | ".join(cells + cols) +
                    f" | {target_cell(verdicts)} |\n")
            row_lines.append({"app": app, "class": cls, "ranks": ranks, "bind": bind,
                              "times": {i: rows[i] for i in IMPLS + ("floor",)},
                              "ratios": {k: {"median": c[1], "worst": max(c[2].values()) if c[2] else None,
                                             "launches": c[2]} for k, c in computed.items()},
                              "targets": [{"target": n, "met": ok, "worst": w} for n, ok, w, _ in verdicts]})
        if failures:
            t.write("\n**Failed launches (no figure):**\n\n")
            for l in failures:
                t.write(f"- {l['app']} class {l['class']}, {l['ranks']} ranks, bind {l['bind']}, {l['impl']}, "
                        f"repetition {l['repetition']}: {l['failure']} ({l['log']})\n")
    write_rows(args.rows_json, row_lines)
    return 1 if failures or not launches else 0


def write_rows(path, rows):
    """ROWS.JSONL: one object per table row (every launch's ratios, the worst, the verdicts)."""
    if path:
        with open(path, "w") as f:
            for r in rows:
                f.write(json.dumps(r, sort_keys=False) + "\n")


def cases_table(args):
    rows = collections.OrderedDict()
    try:
        lines = open(args.jsonl).read().splitlines()
    except FileNotFoundError:
        lines = []
    for line in lines:
        r = json.loads(line)
        rows.setdefault(r["case"], []).append(r)

    def rate(r):
        for key, unit in (("mops", "Mop/s"), ("gflops", "GF/s")):
            if isinstance(r.get(key), (int, float)):
                return r[key], unit
        return None, ""

    failed = 0
    row_lines = []
    with open(args.out, "w") as t, open(args.medians, "w") as d:
        t.write("| # | case | launches | median time (s) | min-max (s) | median rate | ratios (median of the launches "
                "(worst launch; every launch's)) | target (issue 54; worst launch) | verified | load |\n")
        t.write("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
        for i, (case, rs) in enumerate(rows.items()):
            times = [r["time_s"] for r in rs]
            rates = [rate(r)[0] for r in rs if rate(r)[0] is not None]
            unit = rate(rs[0])[1]
            verified = all(r.get("verified", True) is not False for r in rs)  # programs without a check: yes
            failed |= not verified
            med = statistics.median(times)
            rate_txt = f"{statistics.median(rates):.1f} {unit}" if rates else "-"
            loads = ", ".join(f"{r['load']}" for r in rs)
            # A program's own ratios to what ran beside it in the launch (armada-ccsd: "vs_dgemm", ...):
            # higher is better, so the worst launch is the lowest.
            keys = [k for k in rs[0] if k.startswith("vs_") and not k.endswith(("_min", "_max"))]
            per_key = {k: [r[k] for r in rs if isinstance(r.get(k), (int, float))] for k in keys}
            ratios = "; ".join(f"/{k[3:]} {statistics.median(v):.2f} (worst {min(v):.2f}; "
                               + " ".join(f"{x:.2f}" for x in v) + ")" for k, v in per_key.items() if v)
            verdicts = case_verdicts(rs[0].get("benchmark"), case, per_key)
            verdict = "; ".join(f"{k} ≥ {m}: {'met' if ok else 'MISSED'} (worst launch {decisive(w, m, False)})"
                                for k, m, ok, w in verdicts)
            t.write(f"| {i + 1} | `{case}` | {len(rs)} | {med:.3f} | {min(times):.3f}-{max(times):.3f} | {rate_txt} | "
                    f"{ratios or '-'} | {verdict or '-'} | {'yes' if verified else 'NO'} | {loads} |\n")
            row_lines.append({"case": case, "launches": len(rs), "times": times,
                              "ratios": {k: {"median": statistics.median(v), "worst": min(v), "launches": v}
                                         for k, v in per_key.items() if v},
                              "targets": [{"target": f"{k} >= {m}", "met": ok, "worst": w} for k, m, ok, w in verdicts]})
            d.write(f"{i} \"{i + 1}\" {med} {min(times)} {max(times)}\n")  # x label: the table's #
    write_rows(args.rows_json, row_lines)
    return 1 if failed else 0


def case_verdicts(benchmark, case, per_key):
    """CASE_TARGETS that apply to a case, each judged in its worst launch: [(key, min, met, worst)]."""
    out = []
    for c in CASE_TARGETS:
        v = per_key.get(c["key"])
        if c["benchmark"] == benchmark and v and all(w in case + " " for w in c["words"]):
            out.append((c["key"], c["min"], min(v) >= c["min"], min(v)))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", action="store_true")
    p.add_argument("jsonl")
    p.add_argument("out")
    p.add_argument("medians", nargs="?")
    p.add_argument("--load-before", default="?")
    p.add_argument("--load-after", default="?")
    p.add_argument("--note", default="")
    p.add_argument("--rows-json", default="", help="one JSON object per row: every launch's ratios, the worst, verdicts")
    args = p.parse_args()
    return cases_table(args) if args.cases else npb_table(args)


if __name__ == "__main__":
    raise SystemExit(main())
