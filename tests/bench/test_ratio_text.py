#!/usr/bin/env python3
"""scripts/ratio_text.py: a ratio printed beside a target never contradicts the verdict — digits
are added only where the rounded figure would fall on the other side of the limit.

    test_ratio_text.py SCRIPTS_DIR
"""
import sys


def main():
    sys.path.insert(0, sys.argv[1])
    from ratio_text import decisive

    cases = [
        # (value, limit, at_most, spec, expected text)
        (0.9004, 0.9, True, ".2f", "0.9004"),   # missed: "0.90" would read as met
        (0.896, 0.9, True, ".2f", "0.90"),      # met, and 0.90 <= 0.9 agrees
        (0.93, 0.9, True, ".2f", "0.93"),       # missed, no extra digit needed
        (1.318, 1.3, True, ".2g", "1.32"),      # bench-cluster's "1.3x (missed: <= 1.3x)"
        (5.0, 1.5, True, ".2g", "5"),
        (1.3, 1.3, True, ".2g", "1.3"),         # exactly at the limit: met, printed so
        (0.8496, 0.85, False, ".2f", "0.8496"), # at-least target: "0.85" would read as met
        (0.8504, 0.85, False, ".2f", "0.85"),   # met, and 0.85 >= 0.85 agrees
        (1.25, 1.2, False, ".2f", "1.25"),
    ]
    failures = []
    for value, limit, at_most, spec, expected in cases:
        got = decisive(value, limit, at_most, spec)
        if got != expected:
            failures.append(f"decisive({value}, {limit}, at_most={at_most}, {spec!r}) = {got!r}, expected {expected!r}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print(f"ratio_text OK ({len(cases)} cases)")


if __name__ == "__main__":
    main()
