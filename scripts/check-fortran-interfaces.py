#!/usr/bin/env python3
"""Checks bind(C) interfaces against the C declarations they call, by its own reading of each C
type: the test of scripts/gen-fortran-interfaces.py, which generates the Fortran module's
interfaces from the same headers (a generator bug fails here, not at run time).

    scripts/check-fortran-interfaces.py FORTRAN_FILE C_FILE...   (exit 1, one line per mismatch)

For every `function`/`subroutine ... bind(C)` of FORTRAN_FILE's interface blocks, the C function
of that name (or of bind(C, name="...")) must be declared in one of C_FILE, with the same number
of parameters, each of a matching type, and a matching result:
  integer(c_int), value            int             (c_int64_t: int64_t, c_long: long, c_size_t: size_t)
  real(c_double), value            double          (c_float: float)
  type(c_ptr), value               any pointer     type(c_funptr), value: a function pointer
  integer(c_int) x / x(*) / x(n)   int* or int[]   (any kind: a pointer to its C type; intent(in)
                                                    may be const, intent(out)/(inout) must not be)
  character(kind=c_char) s(*)      char*
  type(c_ptr) p (no value)         a pointer to a pointer (or deeper: char*** argv)
  type(*), dimension(..)           CFI_cdesc_t*
  integer(c_int) function          returns int     subroutine: returns void; type(c_ptr) function:
                                                    returns a pointer
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from c_declarations import c_declarations, c_shape  # noqa: E402

C_TYPES = {"c_int": "int", "c_int64_t": "int64_t", "c_long": "long", "c_size_t": "size_t",
           "c_double": "double", "c_float": "float", "c_char": "char", "c_bool": "bool",
           "c_float_complex": "float _Complex", "c_double_complex": "double _Complex"}
ROUTINE = re.compile(r"^\s*(?:(?P<result>[\w(), =*]+?)\s+)?(?P<kind>function|subroutine)\s+(?P<name>\w+)\s*"
                     r"\((?P<args>[^)]*)\)\s*(?:result\s*\(\s*\w+\s*\)\s*)?bind\s*\(\s*C\s*(?:,\s*name\s*=\s*"
                     r"[\"'](?P<cname>\w+)[\"']\s*)?\)", re.IGNORECASE)
DECLARATION = re.compile(r"^\s*(?P<spec>(?:integer|real|complex|logical|character|type)\b[^:]*)::(?P<names>.*)$",
                         re.IGNORECASE)


def fortran_lines(text):
    """Logical lines: comments dropped, & continuations joined."""
    lines, pending = [], None
    for raw in text.splitlines():
        line = raw.split("!", 1)[0].rstrip()
        if pending is not None:
            rest = line.lstrip()
            line = pending + " " + (rest[1:] if rest.startswith("&") else rest)
        if line.endswith("&"):
            pending = line[:-1]
            continue
        pending = None
        lines.append(line)
    return lines


def fortran_routines(path):
    """name -> (C name, kind, result spec, [(argument, spec)]) of every bind(C) routine."""
    routines, current = {}, None
    for line in fortran_lines(pathlib.Path(path).read_text()):
        if current is None:
            m = ROUTINE.match(line)
            if m and not re.match(r"^\s*end\b", line, re.IGNORECASE):
                args = [a.strip().lower() for a in m["args"].split(",") if a.strip()]
                current = {"name": m["name"].lower(), "cname": m["cname"] or m["name"], "kind": m["kind"].lower(),
                           "result": (m["result"] or "").strip().lower(), "args": args, "specs": {}}
            continue
        if re.match(r"^\s*end\s*(function|subroutine)\b", line, re.IGNORECASE):
            routines[current["name"]] = current
            current = None
            continue
        d = DECLARATION.match(line)
        if d:
            spec = re.sub(r"\s+", "", d["spec"].lower())
            for entity in split_top(d["names"]):
                name = re.match(r"\s*(\w+)", entity)[1].lower()
                current["specs"][name] = spec + ("[]" if "(" in entity else "")
    return routines


def split_top(text):
    """Splits `a, b(*), c(n, m)` at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def expected(spec):
    """What a Fortran dummy's spec asks of C: (base type or None for any, pointer depth, intent)."""
    intent = re.search(r"intent\((in|out|inout)\)", spec)
    intent = intent[1] if intent else "inout"
    array = spec.endswith("[]") or "dimension(" in spec
    value = ",value" in spec
    if spec.startswith("type(*)"):
        return ("CFI_cdesc_t", 1, intent)
    if spec.startswith("type(c_funptr)"):
        return ("function", 1, intent)
    if spec.startswith("type(c_ptr)"):
        return (None, 1 if value else 2, intent)
    kind = re.search(r"kind=(\w+)|\((c_\w+)\)", spec)
    kind = kind[1] or kind[2] if kind else None
    base = C_TYPES.get(kind, kind)
    return (base, 0 if value and not array else 1, intent)


def check(routine, c):
    problems = []
    where = f"{routine['cname']}"
    result, params = c
    if len(params) != len(routine["args"]):
        return [f"{where}: Fortran passes {len(routine['args'])} argument(s), C takes {len(params)}"]
    for i, (arg, param) in enumerate(zip(routine["args"], params)):
        spec = routine["specs"].get(arg)
        if spec is None:
            problems.append(f"{where}: argument '{arg}' has no declaration in the interface")
            continue
        base, depth, intent = expected(spec)
        cbase, cdepth, const, _, _, _ = c_shape(param)
        if depth == 2 and base is None:
            ok = cdepth >= 2  # a c_ptr by reference: the address of any pointer
        elif base is None:
            ok = cdepth >= 1
        else:
            ok = cdepth == depth and (cbase == base or (base == "function" and cbase == "function"))
        if not ok:
            problems.append(f"{where}: argument {i + 1} '{arg}' is '{spec}' in Fortran, '{param}' in C")
        elif ",value" not in spec and const and intent in ("out", "inout") and base not in ("CFI_cdesc_t", "function"):
            problems.append(f"{where}: argument {i + 1} '{arg}' is intent({intent}) in Fortran, const in C ('{param}')")
    rbase, rdepth, _, _, _, _ = c_shape(result + " r")
    if routine["kind"] == "subroutine":
        ok = rbase == "void" and rdepth == 0
    elif routine["result"].startswith("type(c_ptr)"):
        ok = rdepth >= 1
    else:
        base, _, _ = expected(routine["result"] + ",value")
        ok = rdepth == 0 and rbase == base
    if not ok:
        problems.append(f"{where}: the Fortran {routine['kind']} {routine['result'] or ''} returns "
                        f"what C declares as '{result}'".replace("  ", " "))
    return problems


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    routines = fortran_routines(argv[1])
    declarations = c_declarations(argv[2:])
    problems = []
    for routine in routines.values():
        c = declarations.get(routine["cname"])
        if c is None:
            problems.append(f"{routine['cname']}: bound in {argv[1]}, declared in none of the C files")
            continue
        problems += check(routine, c)
    for p in problems:
        print(f"check-fortran-interfaces: {p}")
    if not routines:
        print(f"check-fortran-interfaces: no bind(C) routine found in {argv[1]}")
        return 1
    if not problems:
        print(f"check-fortran-interfaces: {len(routines)} bind(C) interfaces match their C declarations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
