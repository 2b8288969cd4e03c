#!/usr/bin/env python3
"""Which (layer, transport, node shape) pairs a build's test rows cover, read from ctest itself.

    scripts/test-matrix.py <build dir | ctest json> [--before <build dir | ctest json>]

Each row's layer comes from its labels, its transport and node shape from the environment it
runs with (ARMADA_TRANSPORT and the variables that select a transport's variant,
ARMADA_NODE_SIZE), so the table states what runs, independently of the CMake bookkeeping that
registered it (armada_check_layer_coverage). With --before, the pairs covered before and after
side by side, and the pairs lost (exit 1 if any) — docs/testing.md#the-test-matrix keeps one.
The emulated-cluster rows (label cluster) are left out, as scripts/test.sh leaves them out.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

# Most specific first: a row labelled "ga;fortran" belongs to GA's Fortran programs.
LAYERS = [("examples", "examples"), ("python", "python"), (("ga", "fortran"), "ga-fortran"),
          ("fortran", "fortran"), ("ga", "ga"), ("apps", "apps"), ("ccsd", "apps"), ("linalg", "linalg"),
          ("arrays", "arrays"), ("capi", "capi"), ("rma", "rma")]


def load(source):
    if os.path.isdir(source):
        out = subprocess.run(["ctest", "--test-dir", source, "--show-only=json-v1"], check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)["tests"]
    with open(source) as f:
        return json.load(f)["tests"]


def layer_of(labels):
    for want, name in LAYERS:
        wants = want if isinstance(want, tuple) else (want,)
        if all(w in labels for w in wants):
            return name
    return None


def shape_of(env):
    """(transport with its variant, node shape) of a row's environment."""
    transport = env.get("ARMADA_TRANSPORT")
    nodes = env.get("ARMADA_NODE_SIZE")
    if transport is None:
        transport = "auto" if nodes else "shm"
    variant = []
    if transport == "server":
        if env.get("ARMADA_SERVER_DIRECT") == "off":
            variant.append("messages")
        if env.get("ARMADA_SERVER_CLUSTER"):
            variant.append("clustered")
    if transport == "mpi-rma":
        if env.get("OMPI_MCA_osc") == "ucx":
            variant.append("osc ucx")
        if env.get("ARMADA_MPI_MEMORY") == "shm":
            variant.append("Win_create")
    if transport == "rdma" and env.get("ARMADA_UCX_TLS", env.get("UCX_TLS", "")).startswith("tcp"):
        variant.append("tcp")
    name = transport + (" (" + ", ".join(variant) + ")" if variant else "")
    return name, ("one node" if not nodes else f"{nodes} per node")


def pairs(tests):
    result = collections.defaultdict(int)
    for test in tests:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        labels = props.get("LABELS", [])
        if "cluster" in labels or "mpi" not in labels:
            continue
        layer = layer_of(labels)
        if layer is None:
            continue
        env = dict(e.split("=", 1) for e in props.get("ENVIRONMENT", []) if "=" in e)
        result[(layer,) + shape_of(env)] += 1
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("after")
    parser.add_argument("--before")
    args = parser.parse_args()
    after = pairs(load(args.after))
    before = pairs(load(args.before)) if args.before else None
    keys = sorted(set(after) | set(before or {}))
    if before is None:
        print("| layer | transport | node shape | rows |\n| --- | --- | --- | ---: |")
        for k in keys:
            print(f"| {k[0]} | {k[1]} | {k[2]} | {after[k]} |")
        return 0
    print("| layer | transport | node shape | rows before | rows after |\n| --- | --- | --- | ---: | ---: |")
    lost = []
    for k in keys:
        b, a = before.get(k, 0), after.get(k, 0)
        print(f"| {k[0]} | {k[1]} | {k[2]} | {b} | {a if a else '**0: lost**'} |")
        if b and not a:
            lost.append(k)
    print(f"\nrows: {sum(before.values())} before, {sum(after.values())} after; pairs: {len(before)} before, "
          f"{len(after)} after, {len(lost)} lost")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
