#!/usr/bin/env python3
"""A scripted Hub peer for tests/peers.rs: behaves on the wire as a real program no one here
wrote, and plays real moves by asking `damiera hub` (the path in $DAMIERA) behind it.

Modes (argv[1]), each from ../shared/reference/protocols.md:
  scan31     Scan 3.1's `hub` answer: `param name=variant value=normal type=enum
             values="normal killer bt frisian losing"` (section 8.1). A `set-param name=variant`
             outside that list is fatal, as in Scan 3.1 (src/hub.cpp, var.cpp): it prints
             `error: variant = "<value>"` on stderr and exits with status 1.
  novariant  A Hub 2 engine that announces no variant parameter and plays International; any
             `set-param name=variant` is fatal the same way.
  hub1       Scan 2.0's first Hub dialect (section 8.2; Scan 2.0 main.cpp `hub_loop`):
             `hub` -> name/author/country/wait, `set N V`, `init` -> ready, `new`, `ping`,
             `pos <w|b><50 squares>` (limits reset), `move M` per move, `time MS`,
             `level MOVES MS INC_MS`, `depth N`, `go` -> positional `info` then `move M [P]`.
             Lines of any other form are ignored, as Scan 2.0 ignores them.
  hang       A wrapper that starts a child process of its own (pid written to argv[2]), answers
             the Hub handshake and never answers `go`.
"""
import os
import subprocess
import sys

SCAN_VARIANTS = "normal killer bt frisian losing"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def fatal_variant(value):
    sys.stderr.write('error: variant = "%s"\n' % value)
    sys.stderr.flush()
    sys.exit(1)


def field(line, name):
    """The value of name=value in a Hub line (quotes removed)."""
    key = name + "="
    i = line.find(" " + key)
    if i < 0:
        return None
    rest = line[i + 1 + len(key):]
    if rest.startswith('"'):
        return rest[1:].split('"', 1)[0]
    return rest.split(" ", 1)[0]


class Damiera:
    """`damiera hub` playing International behind the fake."""

    def __init__(self):
        self.p = subprocess.Popen([os.environ["DAMIERA"], "hub"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("hub")
        self.until(lambda l: l == "wait")
        self.send("set-param name=variant value=international")
        self.send("init")
        self.until(lambda l: l == "ready")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, want):
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                sys.exit(3)
            l = l.strip()
            lines.append(l)
            if want(l):
                return lines


def hub2(announce_variant):
    eng = None
    for raw in sys.stdin:
        line = raw.strip()
        word = line.split(" ", 1)[0]
        if word == "hub":
            out('id name=fake version=3.1 author="nobody here"')
            if announce_variant:
                out('param name=variant value=normal type=enum values="%s"' % SCAN_VARIANTS)
            out("param name=threads value=1 type=int min=1 max=16")
            out("wait")
        elif word == "set-param":
            if field(line, "name") == "variant":
                value = field(line, "value")
                if not announce_variant or value not in SCAN_VARIANTS.split():
                    fatal_variant(value)
        elif word == "init":
            eng = Damiera()
            out("ready")
        elif word in ("new-game", "pos", "level"):
            eng.send(line)
        elif word == "go":
            eng.send(line)
            for l in eng.until(lambda l: l.startswith("done")):
                out(l)
        elif word == "ping":
            out("pong")
        elif word == "quit":
            return


def hub1():
    eng = None
    pos, moves, limits = None, [], []
    out("Scan 2.0 by Fabien Letouzey")
    for raw in sys.stdin:
        parts = raw.split()
        if not parts:
            continue
        word, args = parts[0], parts[1:]
        if word == "hub":
            out("name Fake Scan 2.0")
            out("author nobody here")
            out("country nowhere")
            out("wait")
        elif word == "init":
            eng = Damiera()
            out("ready")
        elif word == "new":
            eng.send("new-game")
        elif word == "ping":
            out("pong")
        elif word == "pos":
            s = args[0] if args else ""
            if len(s) != 51 or s[0] not in "wb" or any(c not in "wbWBe" for c in s[1:]):
                out("error bad position")
                pos = None
            else:
                pos = s
            moves, limits = [], []
        elif word == "move" and args:
            moves.append(args[0])
        elif word == "time" and args:
            limits = ["move-time=%.3f" % (int(args[0]) / 1000.0)]
        elif word == "level" and len(args) == 3:
            limits = ["time=%.3f" % (int(args[1]) / 1000.0), "inc=%.3f" % (int(args[2]) / 1000.0)]
        elif word == "depth" and args:
            limits = ["depth=%d" % int(args[0])]
        elif word == "go" and pos is not None:
            eng.send('pos pos=%s%s moves="%s"' % (pos[0].upper(), pos[1:], " ".join(moves)))
            eng.send("level " + " ".join(limits or ["depth=2"]))
            eng.send("go think")
            for l in eng.until(lambda l: l.startswith("done")):
                if l.startswith("info"):
                    depth = field(l, "depth") or "1"
                    score = field(l, "score") or "0"
                    nodes = field(l, "nodes") or "0"
                    pv = field(l, "pv") or ""
                    out("info %s %s.0 %s %s 0.001 1.0 %s" % (depth, depth, score, nodes, pv))
                elif l.startswith("done"):
                    best = field(l, "move")
                    ponder = field(l, "ponder")
                    out("move %s%s" % (best, " " + ponder if ponder else ""))
        elif word == "quit":
            return


def hang(pidfile):
    child = subprocess.Popen(["sleep", "600"])
    with open(pidfile, "w") as f:
        f.write(str(child.pid))
    for raw in sys.stdin:
        word = raw.split(" ", 1)[0].strip()
        if word == "hub":
            out("id name=hang")
            out("wait")
        elif word == "init":
            out("ready")
        elif word == "ping":
            out("pong")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "scan31":
        hub2(True)
    elif mode == "novariant":
        hub2(False)
    elif mode == "hub1":
        hub1()
    elif mode == "hang":
        hang(sys.argv[2])
