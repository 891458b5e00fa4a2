#!/usr/bin/env python3
"""The house's shape in figures: Rust files over 800 lines, functions over 120 lines,
and the lines of docs/ split into reference and journal (docs/journal/).

Usage: python3 scripts/code-metrics.py [ROOT]   (ROOT: a checkout, default ".")

A function is counted from its `fn` line to the first later line that closes it at the
`fn` line's own indentation (rustfmt's layout), so the figures are for formatted code.
Folders read: src/ and trainer/src/ (tests and benches are not counted).
"""

import os
import re
import sys

FILE_LIMIT = 800
FN_LIMIT = 120
FN_RE = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def rust_files(root):
    for top in ("src", "trainer/src"):
        base = os.path.join(root, top)
        for folder, _, names in os.walk(base):
            for name in sorted(names):
                if name.endswith(".rs"):
                    yield os.path.join(folder, name)


def long_functions(lines):
    """(name, first line, length) of each function longer than FN_LIMIT lines."""
    found = []
    for i, line in enumerate(lines):
        m = FN_RE.match(line)
        if not m:
            continue
        indent = m.group(1)
        # A declaration without a body (trait item) ends in ';' before any '{'.
        head = line
        j = i
        while "{" not in head and not head.rstrip().endswith(";") and j + 1 < len(lines):
            j += 1
            head = lines[j]
        if "{" not in head or head.rstrip().endswith("}"):
            continue
        close = indent + "}"
        for k in range(j + 1, len(lines)):
            if lines[k].rstrip() == close:
                length = k - i + 1
                if length > FN_LIMIT:
                    found.append((m.group(8), i + 1, length))
                break
    return found


def doc_lines(root):
    reference = journal = 0
    docs = os.path.join(root, "docs")
    for folder, _, names in os.walk(docs):
        for name in names:
            if not name.endswith(".md"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                count = sum(1 for _ in f)
            if os.path.relpath(path, docs).startswith("journal" + os.sep):
                journal += count
            else:
                reference += count
    return reference, journal


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    big_files = []
    big_fns = []
    for path in rust_files(root):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        rel = os.path.relpath(path, root)
        if len(lines) - 1 > FILE_LIMIT:
            big_files.append((rel, len(lines) - 1))
        for name, start, length in long_functions(lines):
            big_fns.append((f"{rel}:{start} {name}", length))
    print(f"files over {FILE_LIMIT} lines: {len(big_files)}")
    for rel, n in sorted(big_files, key=lambda x: -x[1]):
        print(f"  {n:5}  {rel}")
    print(f"functions over {FN_LIMIT} lines: {len(big_fns)}")
    for where, n in sorted(big_fns, key=lambda x: -x[1]):
        print(f"  {n:5}  {where}")
    reference, journal = doc_lines(root)
    print(f"docs lines: reference {reference}, journal {journal}")


if __name__ == "__main__":
    main()
