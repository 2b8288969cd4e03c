#!/usr/bin/env python3
"""Who holds the heap a phase keeps, and how it grows with the job (issue 53, docs/scaling.md
"Where init's heap lives"): reads two files written by `armada-scale --heap-sites FILE` under
the libarmada-heap-sites shim at two job sizes, attributes each live block to its allocation
site (the first frame outside the C and C++ runtimes) and to a library, and prints, per phase,
each site's bytes at both sizes and its growth per rank of the job (bytes per P).

    scripts/heap_sites.py small.txt large.txt [--top 15] [--json FILE]

Blocks a site keeps for every rank of the job show as a constant B/P; blocks per contacted
peer (O(log P)) show as a B/P that shrinks between wider pairs of sizes.
"""
import argparse
import collections
import json
import re
import shutil
import subprocess
import sys

# Frames skipped to find the site: the runtimes' allocation layers and the shim itself.
RUNTIME = ("libc.so", "libstdc++.so", "libarmada-heap-sites.so", "libgcc_s.so")
# Library of a site, by the file its frame names (first match).
LIBRARIES = (
    ("armada", re.compile(r"libarmada_|/armada-|armada_scale|armada-scale")),
    ("MPI", re.compile(r"libmpi|libopen-pal|libopen-rte|openmpi|mpich|libpmix|libhwloc|libevent")),
    ("UCX", re.compile(r"libuc[pts]|ucx")),
)


def library_of(frame):
    for name, pattern in LIBRARIES:
        if pattern.search(frame):
            return name
    return "other"


def read(path):
    """(ranks, {phase: {site: bytes}}, {site: library}, dropped) from one --heap-sites file."""
    ranks, dropped = None, 0
    phases = collections.defaultdict(collections.Counter)
    libraries = {}
    block = None  # (phase, bytes, frames)

    def close():
        if block is None:
            return
        phase, size, frames = block
        site = next((f for f in frames if not any(r in f for r in RUNTIME)), frames[0] if frames else "?")
        site = re.sub(r"\s*\[0x[0-9a-f]+\]$", "", site)
        phases[phase][site] += size
        libraries[site] = library_of(site)

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("ranks "):
                ranks = int(line.split()[1])
            elif line.startswith("dropped "):
                dropped = int(line.split()[1])
            elif line.startswith("block "):
                close()
                _, phase, size = line.split()
                block = (phase, int(size), [])
            elif block is not None and line:
                block[2].append(line)
    close()
    if ranks is None:
        sys.exit(f"heap_sites.py: {path}: no 'ranks' line: not a file from armada-scale --heap-sites")
    return ranks, phases, libraries, dropped


def compare(small, large, top):
    (p1, phases1, libs1, d1), (p2, phases2, libs2, d2) = small, large
    if p2 <= p1:
        sys.exit(f"heap_sites.py: the second file's job ({p2} ranks) must be larger than the first's ({p1})")
    libraries = {**libs1, **libs2}
    out = {"ranks": [p1, p2], "dropped": [d1, d2], "phases": {}}
    for phase in sorted(set(phases1) | set(phases2)):
        a, b = phases1.get(phase, {}), phases2.get(phase, {})
        sites = []
        for site in set(a) | set(b):
            sites.append({"site": site, "library": libraries.get(site, "other"), "bytes": [a.get(site, 0), b.get(site, 0)],
                          "bytes_per_rank": (b.get(site, 0) - a.get(site, 0)) / (p2 - p1)})
        sites.sort(key=lambda s: -s["bytes_per_rank"])
        by_library = collections.defaultdict(lambda: [0, 0])
        for s in sites:
            by_library[s["library"]][0] += s["bytes"][0]
            by_library[s["library"]][1] += s["bytes"][1]
        out["phases"][phase] = {
            "libraries": {k: {"bytes": v, "bytes_per_rank": (v[1] - v[0]) / (p2 - p1)} for k, v in sorted(by_library.items())},
            "sites": sites[:top],
        }
    return out


def demangle(names):
    """C++ names readable (c++filt, when installed); others unchanged."""
    if not names or not shutil.which("c++filt"):
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=False).stdout
    lines = out.split("\n")
    return {n: (lines[i] if i < len(lines) and lines[i] else n) for i, n in enumerate(names)}


def short(site, names, width=110):
    """`file: function+offset` of a frame `path/file(function+offset)`, the function demangled."""
    m = re.match(r"(.*/)?([^/(]+)\((.*?)(\+0x[0-9a-f]+)?\)$", site)
    if not m:
        return site
    function = names.get(m.group(3), m.group(3)) or "?"
    function = re.sub(r"\(.*\)", "(…)", function)  # the parameter list: long, and the offset says where
    text = f"{m.group(2)}: {function}{m.group(4) or ''}"
    return text if len(text) <= width else text[: width - 1] + "…"


def symbols(result):
    found = set()
    for data in result["phases"].values():
        for s in data["sites"]:
            m = re.match(r".*\((.*?)(\+0x[0-9a-f]+)?\)$", s["site"])
            if m and m.group(1):
                found.add(m.group(1))
    return demangle(sorted(found))


def print_markdown(result):
    names = symbols(result)
    p1, p2 = result["ranks"]
    print(f"Live heap kept by each phase, rank 0, at {p1} and {p2} ranks (blocks the table could not hold: "
          f"{result['dropped'][0]} and {result['dropped'][1]})\n")
    for phase, data in result["phases"].items():
        print(f"### {phase}\n")
        print(f"| library | at {p1} ranks (B) | at {p2} ranks (B) | growth (B per rank of the job) |")
        print("|---|---|---|---|")
        for name, v in data["libraries"].items():
            print(f"| {name} | {v['bytes'][0]} | {v['bytes'][1]} | {v['bytes_per_rank']:.1f} |")
        print(f"\n| site | library | at {p1} (B) | at {p2} (B) | B per rank |")
        print("|---|---|---|---|---|")
        for s in data["sites"]:
            print(f"| `{short(s['site'], names)}` | {s['library']} | {s['bytes'][0]} | {s['bytes'][1]} | {s['bytes_per_rank']:.1f} |")
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("small", help="--heap-sites file of the smaller job")
    ap.add_argument("large", help="--heap-sites file of the larger job")
    ap.add_argument("--top", type=int, default=15, help="sites listed per phase (default 15)")
    ap.add_argument("--json", help="also write the comparison as JSON to this file")
    args = ap.parse_args()
    result = compare(read(args.small), read(args.large), args.top)
    print_markdown(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
