#!/usr/bin/env python3
"""Where the test suite's time went: the slowest rows and the total per folder.

    scripts/test-timing.py <build dir> [--junit FILE] [--top N] [--costs FILE]

Reads the JUnit file ctest wrote (scripts/test.sh: `ctest --output-junit`) for each row's time and
result, and `ctest --show-only=json-v1` for the folder that registered it (its working directory).
Prints a Markdown report (the N slowest rows, then every folder with its rows, launches and
seconds) and writes it to <build dir>/test-timing.md. With --costs, also writes the rows that
took 10 s or more as "name seconds" lines: tests/costs.txt, which CMake turns into ctest's COST
property so that a fresh build directory (no ctest history) starts the longest rows first.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

COST_FLOOR_S = 10.0  # rows below this keep ctest's default order


def folders(build):
    """Test name -> folder (relative to the build tree) that registered it."""
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    result = {}
    for test in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        where = os.path.relpath(props.get("WORKING_DIRECTORY", build), build)
        result[test["name"]] = "(top)" if where == "." else where
    return result


def rows(junit):
    """(name, seconds, status) of every row in ctest's JUnit file."""
    tree = ET.parse(junit)
    for case in tree.iter("testcase"):
        status = "passed"
        if case.find("failure") is not None:
            status = "failed"
        elif case.find("skipped") is not None:
            status = "skipped"
        yield case.get("name"), float(case.get("time", "0")), status


def report(build, junit, top):
    where = folders(build)
    data = list(rows(junit))
    if not data:
        sys.exit(f"test-timing: no test rows in {junit}")
    lines = [f"Test rows: {len(data)}, {sum(t for _, t, _ in data):.0f} s of row time "
             f"(the wall time is less: ctest runs rows side by side).", "",
             f"The {min(top, len(data))} slowest rows:", "", "| row | folder | s | result |", "| --- | --- | ---: | --- |"]
    for name, seconds, status in sorted(data, key=lambda r: -r[1])[:top]:
        lines.append(f"| `{name}` | {where.get(name, '?')} | {seconds:.1f} | {status} |")
    per = collections.defaultdict(lambda: [0, 0.0])
    for name, seconds, _ in data:
        entry = per[where.get(name, "?")]
        entry[0] += 1
        entry[1] += seconds
    lines += ["", "Per folder:", "", "| folder | rows | s |", "| --- | ---: | ---: |"]
    for folder, (count, seconds) in sorted(per.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"| {folder} | {count} | {seconds:.0f} |")
    return "\n".join(lines) + "\n", data


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--junit", help="ctest's JUnit file (default <build>/test-results.xml)")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--costs", help="write the rows of 10 s or more, 'name seconds', to this file")
    args = parser.parse_args()
    junit = args.junit or os.path.join(args.build, "test-results.xml")
    if not os.path.exists(junit):
        sys.exit(f"test-timing: {junit} not found (run ctest with --output-junit)")
    text, data = report(args.build, junit, args.top)
    with open(os.path.join(args.build, "test-timing.md"), "w") as f:
        f.write(text)
    print(text, end="")
    if args.costs:
        slow = sorted((r for r in data if r[1] >= COST_FLOOR_S), key=lambda r: -r[1])
        with open(args.costs, "w") as f:
            f.write("# Rows that took 10 s or more (scripts/test-timing.py --costs): ctest's COST, so that\n"
                    "# a fresh build directory starts the longest rows first. Seconds on the machine of\n"
                    "# docs/testing.md's timing table.\n")
            for name, seconds, _ in slow:
                f.write(f"{name} {seconds:.0f}\n")


if __name__ == "__main__":
    main()
