#!/usr/bin/env python3
"""Every link between the project's Markdown pages resolves: the file or folder exists, and an
#anchor names a heading of the target page (GitHub's rule: lower case, punctuation dropped,
spaces to hyphens, -1, -2 ... for repeats). Web links (http, https, mailto) are not fetched.

    check_links.py SOURCE_DIR        exit 0 when every link resolves, 1 listing each that does not
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def pages(root):
    """The Markdown files git tracks (build trees and results are not pages)."""
    out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "*.md"],
                         capture_output=True, text=True, check=True).stdout.split()
    return sorted(set(out))


def prose(text):
    """The page without its code blocks and inline code: links inside them are examples."""
    kept, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            kept.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(kept)


def broken_links(root, page):
    path = os.path.join(root, page)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    bad = []
    for target in LINK.findall(prose(text)):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if not os.path.exists(dest):
            bad.append(f"{page}: ({target}): {os.path.relpath(dest, root)} does not exist")
        elif anchor and dest.endswith(".md") and anchor not in anchors_of(dest):
            bad.append(f"{page}: ({target}): no heading '#{anchor}' in {os.path.relpath(dest, root)}")
    return bad


def anchors_of(path, cache={}):
    """Heading anchors, computed from the heading text with inline code (GitHub keeps its words)."""
    if path not in cache:
        seen, out, inside = {}, set(), False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    inside = not inside
                    continue
                m = None if inside else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if not m:
                    continue
                slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
                n = seen.get(slug, 0)
                seen[slug] = n + 1
                out.add(slug if n == 0 else f"{slug}-{n}")
        cache[path] = out
    return cache[path]


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: check_links.py SOURCE_DIR")
    root = os.path.abspath(sys.argv[1])
    all_pages = pages(root)
    bad = [b for page in all_pages for b in broken_links(root, page)]
    for b in bad:
        print("BROKEN LINK", b)
    print(f"check_links.py: {len(all_pages)} pages, {len(bad)} broken links")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
