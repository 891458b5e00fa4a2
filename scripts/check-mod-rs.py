#!/usr/bin/env python3
"""Fails when a child module takes an item its parent's `mod.rs` defines through `use super::`
(docs/architecture.md, "Where new code goes": a `mod.rs` only declares and re-exports; what
children share lives in a named sibling file). Run by `.ci/run`.

    python3 scripts/check-mod-rs.py [SRC_DIR]

Reads each `mod.rs` below SRC_DIR (default `src`) for the items it defines (struct, enum, fn,
trait, const, static, type, union, macro_rules!; re-exports and `mod` lines are not
definitions) and each child (a sibling `.rs` file, or a child folder's `mod.rs`) for the names
its `use super::...` statements take; prints one line per offending name and exits 1 if any.
"""
import pathlib
import re
import sys

DEF = re.compile(
    r"^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+fn\s+|unsafe\s+fn\s+|async\s+fn\s+)?"
    r"(?:struct|enum|fn|trait|const|static|type|union)\s+([A-Za-z_][A-Za-z0-9_]*)"
    r"|^macro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)"
)
USE = re.compile(r"\buse\s+super::((?:[^;])*);", re.S)


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def top_level_defs(text):
    """Names defined at the top level of a file (brace depth 0), outside `#[cfg(test)] mod`."""
    names, depth = set(), 0
    for line in strip_comments(text).splitlines():
        if depth == 0:
            m = DEF.match(line.strip() if line.startswith(" ") is False else "")
            if m:
                names.add(m.group(1) or m.group(2))
        depth += line.count("{") - line.count("}")
    return names


def names_used(text):
    """Names a file's top-level `use super::...;` statements take (`*` for a glob). A
    `use super::` inside a nested module (e.g. `mod tests`) names that file's own module."""
    text = strip_comments(text)
    used, depth, i = set(), 0, 0
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and text.startswith("use super::", i) and (i == 0 or not text[i - 1].isalnum()):
            end = text.index(";", i)
            body = text[i + len("use super::"):end]
            i = end
            if re.search(r"(^|[{,\s])\*", body):
                used.add("*")
            used.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", body))
            continue
        i += 1
    return used


def main():
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
    bad = []
    for modrs in sorted(src.rglob("mod.rs")):
        defs = top_level_defs(modrs.read_text())
        if not defs:
            continue
        folder = modrs.parent
        children = [p for p in folder.glob("*.rs") if p.name != "mod.rs"]
        children += [p / "mod.rs" for p in folder.iterdir() if (p / "mod.rs").is_file()]
        for child in sorted(children):
            used = names_used(child.read_text())
            hits = sorted(defs & used) if "*" not in used else sorted(defs)
            for name in hits:
                bad.append(f"{child}: `use super::` takes `{name}`, defined in {modrs}")
    for line in bad:
        print(line)
    if bad:
        print(f"{len(bad)} parent/child loops: move what children share out of mod.rs into a named file")
        sys.exit(1)


if __name__ == "__main__":
    main()
