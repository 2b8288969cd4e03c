#!/usr/bin/env python3
"""Tables of scripts/bench-apps.sh (standard library only).

  bench_apps_npb.py NPB.JSONL OUT.md [--load-before L] [--load-after L] [--note TEXT]
      MG and CG beside NPB: reads every launch's log, checks its verification (NPB's
      "Verification = SUCCESSFUL", Armada's JSON "verified": true, exit code 0), and writes per
      (app, class, ranks, binding) the median time with [min..max] of NPB, armada --comm rma and
      --comm mpi, and the ratios. Exit 1 when a launch failed or did not verify.
  bench_apps_npb.py --cases RESULTS.JSONL OUT.md MEDIANS.DAT
      the bench-cases.txt programs: median time, min-max, median rate per case.
"""
import argparse
import collections
import json
import re
import statistics
import subprocess

# Issue 33's targets: Armada's time / NPB's time at 2 ranks, classes A and B.
TARGETS = {"mg": 0.85, "cg": 0.9}
TARGET_RANKS = 2
TARGET_CLASSES = ("A", "B")
IMPLS = ("npb", "rma", "mpi")


def npb_result(text):
    """(time_s, verified, mops) of an NPB report."""
    time = re.search(r"^\s*Time in seconds\s*=\s*([0-9.Ee+-]+)", text, re.M)
    mops = re.search(r"^\s*Mop/s total\s*=\s*([0-9.Ee+-]+)", text, re.M)
    verified = re.search(r"^\s*Verification\s*=\s*SUCCESSFUL", text, re.M) is not None
    return (float(time.group(1)) if time else None), verified, (float(mops.group(1)) if mops else None)


def armada_result(text):
    """(time_s, verified, mops) of an Armada NPB program (its last JSON line)."""
    lines = [l for l in text.splitlines() if l.startswith("{") and l.endswith("}")]
    if not lines:
        return None, False, None
    r = json.loads(lines[-1])
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


def spread(times):
    return f"{statistics.median(times):.3f} [{min(times):.3f}..{max(times):.3f}]"


def ratio(rows, num, den):
    """Ratio of the medians, and [min..max] of the ratios within one repetition (paired runs)."""
    if not rows.get(num) or not rows.get(den):
        return "-", None
    if statistics.median(rows[den].values()) <= 0:
        return "- (median 0 s)", None
    med = statistics.median(rows[num].values()) / statistics.median(rows[den].values())
    paired = [rows[num][r] / rows[den][r] for r in rows[num] if r in rows[den] and rows[den][r] > 0]
    rng = f" [{min(paired):.2f}..{max(paired):.2f}]" if paired else ""
    return f"{med:.2f}{rng}", med


def target_cell(app, cls, ranks, rows):
    """Whether the row meets issue 33's targets (rows at 2 ranks, classes A and B only)."""
    if ranks != TARGET_RANKS or cls not in TARGET_CLASSES:
        return ""
    verdicts = []
    _, vs_npb = ratio(rows, "rma", "npb")
    if vs_npb is not None:
        ok = vs_npb <= TARGETS[app]
        verdicts.append(f"rma/NPB ≤ {TARGETS[app]}: {'met' if ok else 'MISSED'}")
    _, vs_mpi = ratio(rows, "rma", "mpi")
    if vs_mpi is not None:
        verdicts.append(f"rma ≤ mpi: {'met' if vs_mpi <= 1.0 else 'MISSED'}")
    return "; ".join(verdicts)


def npb_table(args):
    launches = read_launches(args.jsonl)
    groups = collections.OrderedDict()
    for l in launches:
        key = (l["app"], l["class"], l["ranks"], l["bind"])
        groups.setdefault(key, {i: {} for i in IMPLS})
        if "failure" not in l:
            groups[key][l["impl"]][l["repetition"]] = l["time_s"]
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
                "median [min..max]; ratios are of the medians, [min..max] of the ratios within a repetition; "
                "below 1 Armada is faster\n")
        t.write(f"- NPB prints its time with 2 decimals; {refined} of its {len(npb)} launches carry the time "
                "its Mop/s gives instead (NPB's operation count, from Armada's time x Mop/s of the same class, "
                "/ NPB's Mop/s; only where that agrees with the printed time to its rounding)\n\n")
        t.write("| app | class | ranks | binding | NPB (s) | armada rma (s) | armada mpi (s) | rma/NPB | mpi/NPB "
                "| rma/mpi | target (issue 33) |\n")
        t.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
        for (app, cls, ranks, bind), rows in groups.items():
            cells = [spread(list(rows[i].values())) if rows[i] else "-" for i in IMPLS]
            ratios = [ratio(rows, a, b)[0] for a, b in (("rma", "npb"), ("mpi", "npb"), ("rma", "mpi"))]
            t.write(f"| {app.upper()} | {cls} | {ranks} | {bind} | " + " | ".join(cells + ratios) +
                    f" | {target_cell(app, cls, ranks, rows)} |\n")
        if failures:
            t.write("\n**Failed launches (no figure):**\n\n")
            for l in failures:
                t.write(f"- {l['app']} class {l['class']}, {l['ranks']} ranks, bind {l['bind']}, {l['impl']}, "
                        f"repetition {l['repetition']}: {l['failure']} ({l['log']})\n")
    return 1 if failures or not launches else 0


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
    with open(args.out, "w") as t, open(args.medians, "w") as d:
        t.write("| # | case | launches | median time (s) | min-max (s) | median rate | ratios (median [min..max] of the launches) "
                "| verified | load |\n")
        t.write("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
        for i, (case, rs) in enumerate(rows.items()):
            times = [r["time_s"] for r in rs]
            rates = [rate(r)[0] for r in rs if rate(r)[0] is not None]
            unit = rate(rs[0])[1]
            verified = all(r.get("verified", True) is not False for r in rs)  # programs without a check: yes
            failed |= not verified
            med = statistics.median(times)
            rate_txt = f"{statistics.median(rates):.1f} {unit}" if rates else "-"
            loads = ", ".join(f"{r['load']}" for r in rs)
            # A program's own ratios to what ran beside it in the launch (armada-ccsd: "vs_dgemm", ...).
            keys = [k for k in rs[0] if k.startswith("vs_")]
            ratios = "; ".join(f"/{k[3:]} {statistics.median(v):.2f} [{min(v):.2f}..{max(v):.2f}]"
                               for k in keys for v in [[r[k] for r in rs if isinstance(r.get(k), (int, float))]] if v)
            t.write(f"| {i + 1} | `{case}` | {len(rs)} | {med:.3f} | {min(times):.3f}-{max(times):.3f} | {rate_txt} | "
                    f"{ratios or '-'} | {'yes' if verified else 'NO'} | {loads} |\n")
            d.write(f"{i} \"{i + 1}\" {med} {min(times)} {max(times)}\n")  # x label: the table's #
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", action="store_true")
    p.add_argument("jsonl")
    p.add_argument("out")
    p.add_argument("medians", nargs="?")
    p.add_argument("--load-before", default="?")
    p.add_argument("--load-after", default="?")
    p.add_argument("--note", default="")
    args = p.parse_args()
    return cases_table(args) if args.cases else npb_table(args)


if __name__ == "__main__":
    raise SystemExit(main())
