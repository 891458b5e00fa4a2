#!/usr/bin/env python3
"""A reference reader of DMBK opening books, written from docs/book.md alone.

  book_reader.py --key --variant V --fen F   the book key of a position
  book_reader.py BOOK [--fen F]              the header, then the key and entries of F
  book_reader.py BOOK --keys                 every key in the book, one a line

Entries print as `name from to captured score depth count`, captured as book square numbers
joined by commas or `-`. Standard library only.
"""
import argparse
import struct
import sys

VARIANTS = ["english", "italian", "brazilian", "russian", "damone", "international", "antidraughts",
            "breakthrough", "frisian", "frysk"]
ALGEBRAIC = {"brazilian", "russian", "damone"}
START = {
    "english": "B:W21-32:B1-12",
    "italian": "W:W21-32:B1-12",
    "brazilian": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "russian": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "damone": "W:WIh1,Kf1,Kh3,d1,e2,f3,g4,h5:BIa8,Kc8,Ka6,e8,d7,c6,b5,a4",
    "international": "W:W31-50:B1-20",
    "antidraughts": "W:W31-50:B1-20",
    "breakthrough": "W:W31-50:B1-20",
    "frisian": "W:W31-50:B1-20",
    "frysk": "W:W46-50:B1-5",
}
MASK = (1 << 64) - 1


def splitmix64(seed, count):
    out, state = [], seed
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


T = splitmix64(0x444D424B, 301)


def square_number(variant, name):
    if variant in ALGEBRAIC:
        f, r = ord(name[0]) - ord("a"), int(name[1:]) - 1
        return 4 * r + f // 2 + 1
    return int(name)


def square_name(variant, n):
    if variant not in ALGEBRAIC:
        return str(n)
    r = (n - 1) // 4
    # the dark squares of rank r: a1 dark (Brazilian, Russian) or h1 dark (Damone)
    shift = (r + (1 if variant == "damone" else 0)) % 2
    return "abcdefgh"[2 * ((n - 1) % 4) + shift] + str(r + 1)


def parse_fen(variant, fen):
    """(side, [(colour, kind, n)]): side 0 White, 1 Black; kind 0 man, 1 king, 2 Damone."""
    fields = fen.strip().rstrip(".").split(":")
    side = {"W": 0, "B": 1}[fields[0].strip().upper()]
    pieces = []
    for field in fields[1:]:
        field = field.strip()
        if not field or field[0] not in "WB":
            continue  # lidraughts' :H and :F counters
        colour = 0 if field[0] == "W" else 1
        for item in filter(None, (s.strip() for s in field[1:].split(","))):
            kind = 0
            if item[0] in "KI":
                kind = 1 if item[0] == "K" else 2
                item = item[1:]
            if "-" in item and variant not in ALGEBRAIC:
                lo, hi = item.split("-")
                for n in range(int(lo), int(hi.lstrip("K")) + 1):
                    pieces.append((colour, kind, n))
            else:
                pieces.append((colour, kind, square_number(variant, item)))
    return side, pieces


def key(variant, fen):
    side, pieces = parse_fen(variant, fen)
    k = T[300] if side == 1 else 0
    for colour, kind, n in pieces:
        k ^= T[(3 * colour + kind) * 50 + (n - 1)]
    return k


def read_book(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 32:
        sys.exit(f"error: {path}: truncated")
    magic, version, variant, size, entries, positions = struct.unpack_from("<4sHBBQQ", data)
    if magic != b"DMBK" or version != 1 or size != 32 or variant >= len(VARIANTS):
        sys.exit(f"error: {path}: not a DMBK version 1 book")
    if len(data) != 32 + 32 * entries:
        sys.exit(f"error: {path}: truncated or too long")
    records = []
    for i in range(entries):
        k, captured, frm, to, score, depth, count = struct.unpack_from(
            "<QQBB2xhB1xI4x", data, 32 + 32 * i)
        records.append((k, frm, to, captured, score, depth, count))
    if any(a[0] > b[0] for a, b in zip(records, records[1:])):
        sys.exit(f"error: {path}: records out of key order")
    if len({r[0] for r in records}) != positions:
        sys.exit(f"error: {path}: wrong positions count")
    return VARIANTS[variant], positions, records


def lookup(records, k):
    """The records of key k, by binary search."""
    lo, hi = 0, len(records)
    while lo < hi:
        mid = (lo + hi) // 2
        if records[mid][0] < k:
            lo = mid + 1
        else:
            hi = mid
    out = []
    while lo < len(records) and records[lo][0] == k:
        out.append(records[lo])
        lo += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("book", nargs="?")
    ap.add_argument("--fen")
    ap.add_argument("--variant", choices=VARIANTS)
    ap.add_argument("--key", action="store_true")
    ap.add_argument("--keys", action="store_true")
    a = ap.parse_args()
    if a.key:
        if not a.variant:
            sys.exit("error: --key needs --variant")
        print(f"{key(a.variant, a.fen or START[a.variant]):016x}")
        return
    if not a.book:
        sys.exit("error: a BOOK or --key")
    variant, positions, records = read_book(a.book)
    if a.keys:
        for k in sorted({r[0] for r in records}):
            print(f"{k:016x}")
        return
    print(f"variant {variant}")
    print(f"entries {len(records)}")
    print(f"positions {positions}")
    k = key(variant, a.fen or START[variant])
    print(f"key {k:016x}")
    for _, frm, to, captured, score, depth, count in lookup(records, k):
        taken = [n for n in range(1, 65) if captured >> (n - 1) & 1]
        sep = "x" if taken else "-"
        name = square_name(variant, frm) + sep + square_name(variant, to)
        caps = ",".join(map(str, taken)) or "-"
        print(f"{name} {frm} {to} {caps} {score} {depth} {count}")


if __name__ == "__main__":
    main()
