#!/usr/bin/env python3
"""Checks scripts/heap_sites.py on two armada-scale --heap-sites files (tests/bench, row
bench_heap_sites_output): both phases present; in the arrays phase the registry's segments grow
between the two job sizes by this node's mapping of each member (16 B; the rows run on one node)
and by no base (the symmetric arena places every array's slices at one offset: 8 B more a member
before session 33, a 64 B slice before session 32), attributed to Armada; init's growth is
attributed to libraries by name."""
import json
import subprocess
import sys
import tempfile


def main(script, small, large, arrays):
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        run = subprocess.run([sys.executable, script, small, large, "--top", "1000", "--json", tmp.name],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"heap_sites.py failed ({run.returncode}): {run.stderr}")
        result = json.load(open(tmp.name))
    errors = []
    if result["ranks"] != [1, 2]:
        errors.append(f"job sizes {result['ranks']}, expected [1, 2]")
    if result["dropped"] != [0, 0]:
        errors.append(f"blocks dropped by the shim's table: {result['dropped']}")
    for phase in ("init", "arrays"):
        if phase not in result["phases"]:
            errors.append(f"phase {phase} missing (phases: {sorted(result['phases'])})")
    arrays_phase = result["phases"].get("arrays", {"sites": [], "libraries": {}})
    registry = [s for s in arrays_phase["sites"] if "Registry" in s["site"] and s["library"] == "armada"]
    grown = sum(s["bytes_per_rank"] for s in registry)
    if not 8 * arrays <= grown <= 16 * arrays:
        errors.append(f"arrays: the registry grows by {grown} B per rank, expected at least {8 * arrays} and at most "
                      f"{16 * arrays} (this node's mapping of a member of each of {arrays} arrays, and no base); "
                      f"sites: {arrays_phase['sites']}")
    if arrays_phase["libraries"].get("armada", {}).get("bytes_per_rank", 0) < grown:
        errors.append(f"arrays: Armada's total growth is below its registry's: {arrays_phase['libraries']}")
    init_libraries = result["phases"].get("init", {}).get("libraries", {})
    if "armada" not in init_libraries:
        errors.append(f"init: no block attributed to Armada: {init_libraries}")
    if run.stdout.count("### ") != len(result["phases"]) or "| site |" not in run.stdout:
        errors.append("the markdown report lacks a phase's section or its site table")
    if errors:
        sys.exit("check_heap_sites: " + "; ".join(errors))
    print(f"check_heap_sites: ok (registry {grown:.0f} B per rank for {arrays} arrays; init libraries {sorted(init_libraries)})")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
