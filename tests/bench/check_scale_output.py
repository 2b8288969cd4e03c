#!/usr/bin/env python3
"""Checks armada-scale's JSON lines (tests/bench, row bench_scale_smoke_output): every metric of
one launch present once, on the configuration it ran, with min <= mean <= max and plausible
values; then scripts/scale_model.py reads the file and writes its model table. Timings are
checked only for being finite and non-negative (tests never assert timings)."""
import json
import math
import subprocess
import sys

MEMORY_STEPS = ["init", "arrays", "groups"]
TIMES = ["init_s", "init_cpu_s", "fence_all_clean_s", "fence_all_after_k_puts_s", "fence_all_only_after_k_puts_s", "barrier_s", "agree_s"]


def expected_metrics():
    names = ["rss_mpi"] + TIMES
    for step in MEMORY_STEPS:
        names += [f"rss_{step}", f"heap_{step}", f"rss_growth_{step}", f"rss_nofile_growth_{step}", f"heap_growth_{step}"]
    return names


def main(path, ranks, transport, node_size, model_script, out_dir):
    records = [json.loads(line) for line in open(path) if line.strip()]
    errors = []
    by_metric = {}
    for r in records:
        by_metric.setdefault(r["metric"], []).append(r)
        if r["program"] != "armada-scale":
            errors.append(f"program {r['program']!r}")
        if (r["ranks"], r["transport"], r["node_size"]) != (ranks, transport, node_size):
            errors.append(f"{r['metric']}: ran as {r['ranks']} ranks, {r['transport']}, node size {r['node_size']}")
        if r["nodes"] != math.ceil(ranks / node_size):
            errors.append(f"{r['metric']}: {r['nodes']} nodes")
        lo, mean, hi = r["min"], r["mean"], r["max"]
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in (lo, mean, hi)):
            errors.append(f"{r['metric']}: not finite: {lo} {mean} {hi}")
        elif not (lo <= mean + 1e-9 * abs(mean) and mean <= hi + 1e-9 * abs(hi)):
            errors.append(f"{r['metric']}: min {lo} mean {mean} max {hi} out of order")
    for m in expected_metrics():
        if len(by_metric.get(m, [])) != 1:
            errors.append(f"{m}: {len(by_metric.get(m, []))} records, expected 1")
    for m in ["rss_mpi", "rss_init", "rss_arrays", "rss_groups", "heap_init"]:
        for r in by_metric.get(m, []):
            if not 1 << 20 <= r["min"] <= 64 << 30:
                errors.append(f"{m}: {r['min']} B is not a process's size")
    for m in TIMES:
        for r in by_metric.get(m, []):
            if r["min"] < 0:
                errors.append(f"{m}: negative time {r['min']}")
    # Without file-backed pages the growth is at most the whole resident set's (each step adds
    # to both; pages the step dropped make either smaller).
    for step in MEMORY_STEPS:
        for whole, nofile in zip(by_metric.get(f"rss_growth_{step}", []), by_metric.get(f"rss_nofile_growth_{step}", [])):
            if nofile["max"] > whole["max"] + (64 << 10) or nofile["max"] <= 0 and step == "init":
                errors.append(f"rss_nofile_growth_{step}: max {nofile['max']} B against the whole RSS's {whole['max']} B")
    for r in by_metric.get("heap_growth_groups", []):
        if r["min"] <= 0:
            errors.append(f"heap_growth_groups: {r['min']} B: creating groups added nothing to the heap")
    subprocess.run([sys.executable, model_script, path, "--out", out_dir, "--no-plot"], check=True)
    table = open(f"{out_dir}/model.md").read()
    if f"| {transport} | {node_size} | heap_growth_init |" not in table:
        errors.append("model.md has no heap_growth_init row for this configuration")
    for e in errors:
        print("check_scale_output:", e)
    print(f"check_scale_output: {len(records)} records, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    a = sys.argv
    sys.exit(main(a[1], int(a[2]), a[3], int(a[4]), a[5], a[6]))
