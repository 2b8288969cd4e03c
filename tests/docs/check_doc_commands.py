#!/usr/bin/env python3
"""Runs every command the Markdown pages promise and compares its output with the page.

A promise is a ```console block: each line starting with "$ " is a command (bash), the lines up
to the next command are its documented output (stdout and stderr together, in order). In the
output, a line "..." stands for any number of lines and "..." inside a line for any text; all else
is compared exactly (trailing spaces aside). The exit status is not compared: error examples are
promises too.

The commands run as a reader runs them after scripts/test.sh, from a scratch directory where
`build` is the build tree and the source folders (scripts, examples, docs) are at hand, with a
python3 first on PATH that cannot import NumPy (a venv without site packages, as a pyenv or venv
interpreter often is), so no documented command may depend on which python3 comes first.

    check_doc_commands.py SOURCE_DIR BUILD_DIR [PAGE ...]      (default: every page git tracks)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 120  # seconds per command


def blocks(page_path):
    """(line number, [(command, [expected lines])]) of each console block of the page."""
    out, current, inside = [], None, False
    with open(page_path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not inside and line.strip() == "```console":
                inside, current = True, (number, [])
            elif inside and line.strip() == "```":
                inside = False
                out.append(current)
            elif inside and line.startswith("$ "):
                current[1].append((line[2:], []))
            elif inside:
                if not current[1]:
                    sys.exit(f"{page_path}:{number}: a console block starts with output, not a '$ ' command")
                current[1][-1][1].append(line.rstrip())
    return out


def line_matches(want, got):
    pattern = ".*".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, got) is not None


def output_matches(want, got):
    """want (with "..." lines) against got, every line in order."""
    memo = {}

    def at(i, j):
        if (i, j) not in memo:
            if i == len(want):
                memo[(i, j)] = j == len(got)
            elif want[i] == "...":
                memo[(i, j)] = any(at(i + 1, k) for k in range(j, len(got) + 1))
            else:
                memo[(i, j)] = j < len(got) and line_matches(want[i], got[j]) and at(i + 1, j + 1)
        return memo[(i, j)]

    return at(0, 0)


def sandbox(source, build):
    """The scratch directory the commands run in, and their environment."""
    work = tempfile.mkdtemp(prefix="doc-commands-")
    os.symlink(os.path.abspath(build), os.path.join(work, "build"))
    for name in ("scripts", "examples", "docs"):
        os.symlink(os.path.join(source, name), os.path.join(work, name))
    # A venv of the system Python without its site packages: a python3 without NumPy or mpi4py.
    venv = os.path.join(work, ".venv-without-numpy")
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", venv], check=True)
    fake = os.path.join(venv, "bin")
    env = dict(os.environ, PATH=fake + ":" + os.environ.get("PATH", ""))
    env.pop("PYTHONPATH", None)
    return work, env


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: check_doc_commands.py SOURCE_DIR BUILD_DIR [PAGE ...]")
    source, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    pages = sys.argv[3:] or subprocess.run(["git", "-C", source, "ls-files", "*.md"], capture_output=True,
                                           text=True, check=True).stdout.split()
    work, env = sandbox(source, build)
    ran, failed = 0, 0
    for page in pages:
        for number, commands in blocks(os.path.join(source, page)):
            for command, want in commands:
                try:
                    r = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=False,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
                    got = [line.rstrip() for line in r.stdout.splitlines()]
                except subprocess.TimeoutExpired:
                    got = [f"(killed after {TIMEOUT} s)"]
                ran += 1
                if output_matches(want, got):
                    print(f"ok   {page}:{number}: $ {command}")
                    continue
                failed += 1
                print(f"FAIL {page}:{number}: $ {command}\n--- documented:\n" + "\n".join(want) +
                      "\n--- actual:\n" + "\n".join(got) + "\n---")
    shutil.rmtree(work, ignore_errors=True)
    print(f"check_doc_commands.py: {ran} documented commands, {failed} with other output than documented")
    if ran == 0:
        print("check_doc_commands.py: no ```console block found: nothing was checked")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
