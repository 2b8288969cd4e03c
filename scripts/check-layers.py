#!/usr/bin/env python3
"""Checks that the #include arrows between the folders of rma/src point down the floor plan.

    scripts/check-layers.py [rma/src]        (exit 1 and one line per offending include)
    scripts/check-layers.py --kit programs   the programs' kit stands on the standard library alone

The floor plan, lowest first (docs/architecture.md draws it): a file may include files of its
own folder and of any lower floor, never of a higher one; the transports stand on one floor and
never include each other's files.
"""
import pathlib
import re
import sys

# (floor, folders on it); each transport folder (transport/<name>/) is on the "each transport" floor.
FLOORS = [
    ("common", ["common"]),
    ("desc", ["desc"]),
    ("transport/base", ["transport/base"]),
    ("transport table", ["transport"]),
    ("each transport", []),  # transport/<name>/ other than base
    ("core", ["core"]),
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def folder_of(relative):
    """The floor plan's folder of a path relative to rma/src ("transport/shm", "core", ...)."""
    parts = pathlib.PurePosixPath(relative).parts
    if parts[0] == "transport" and len(parts) > 2:
        return "transport/" + parts[1]
    return parts[0]


def floor_of(folder):
    for rank, (_, folders) in enumerate(FLOORS):
        if folder in folders:
            return rank
    if folder.startswith("transport/"):
        return next(rank for rank, (name, _) in enumerate(FLOORS) if name == "each transport")
    return None


# The programs' kit (options, JSON lines) is used by programs of every layer, so it may include only
# the C++ standard library (<name>, no '.' or '/') and its own headers (armada/programs/...).
STANDARD = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.MULTILINE)


def check_kit(root):
    root = pathlib.Path(root)
    if not root.is_dir():
        print(f"check-layers: {root} is not a folder", file=sys.stderr)
        return 2
    offending, files = [], 0
    for path in sorted(p for d in ("include", "src") for p in (root / d).rglob("*") if p.suffix in (".hpp", ".cpp", ".h")):
        files += 1
        text = path.read_text(encoding="utf-8")
        for included in INCLUDE.findall(text):
            if not included.startswith("armada/programs/"):
                offending.append(f'{path}: #include "{included}": the kit includes only its own headers')
        for included in STANDARD.findall(text):
            if "." in included or "/" in included:
                offending.append(f"{path}: #include <{included}>: not a C++ standard header")
    for line in offending:
        print(line)
    print(f"check-layers: {files} files of the programs' kit, {len(offending)} includes beyond the standard library")
    return 1 if offending or files == 0 else 0


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--kit":
        return check_kit(sys.argv[2])
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "rma/src")
    if not src.is_dir():
        print(f"check-layers: {src} is not a folder", file=sys.stderr)
        return 2
    edges = set()  # (including file, included file), both relative to src
    folders = {child.name for child in src.iterdir() if child.is_dir()}
    missing = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h"):
            continue
        relative = path.relative_to(src).as_posix()
        for included in INCLUDE.findall(path.read_text(encoding="utf-8")):
            if (src / included).exists():  # a file of rma/src (public headers are armada/...)
                edges.add((relative, included))
            elif included.split("/")[0] in folders:
                missing.append(f"{relative} -> {included}: no such file in {src}")
    offending = []
    unknown = set()
    for source, target in sorted(edges):
        a, b = folder_of(source), folder_of(target)
        if a == b:
            continue
        ra, rb = floor_of(a), floor_of(b)
        if ra is None or rb is None:
            unknown.update(f for f, r in ((a, ra), (b, rb)) if r is None)
            continue
        if rb > ra:
            offending.append((source, target, f"up: {a} ({FLOORS[ra][0]}) includes {b} ({FLOORS[rb][0]})"))
        elif rb == ra:
            offending.append((source, target, f"across: transport {a} includes transport {b}"))
    for folder in sorted(unknown):
        print(f"check-layers: {folder}/ is on no floor: add it to FLOORS in {sys.argv[0]}")
    pairs = sorted({(folder_of(s), folder_of(t)) for s, t, _ in offending})
    for line in missing:
        print(line)
    for source, target, why in offending:
        print(f"{source} -> {target}: {why}")
    print(f"check-layers: {len(edges)} include arrows inside {src}, {len(offending)} against the floor plan "
          f"({len(pairs)} folder pairs: {', '.join(f'{a} -> {b}' for a, b in pairs) or 'none'})")
    return 1 if offending or unknown or missing else 0


if __name__ == "__main__":
    sys.exit(main())
