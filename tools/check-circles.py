#!/usr/bin/env python3
"""Import circles among Situ's modules: prints one line per circle and fails if there is any.

A module is a source file's directory and stem (engine/lua/script is engine/lua/script.c and
engine/lua/script.h); a private header NAME_internal.h belongs to module NAME, as it is the rest of
that module's own header. An edge a -> b is an `#include "b.h"` in a.c or a.h that names a
header of ours (a generated or system header is no module), a module's own header excepted. A
circle is a cycle of edges: a includes b's header and b includes a's, or a longer loop. Arrows that
run one way let each module be read, tested and moved with only what it includes.

With --objects, the same for calls, from compiled objects: an edge a -> b is a symbol that a.o
uses and b.o defines (nm), so that two files that include nothing of each other yet call each
other (through a shared private header, say) are a circle too. A module is then the object's path
without its first folder (the build tree) and its .o.

Usage: check-circles.py [ROOT] [DIR...]   (defaults: the repository, engine cli tui plot)
       check-circles.py --objects OBJ...
"""

import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of(path):
    """engine/lua/script_internal.h -> engine/lua/script; cli/main.c -> cli/main."""
    stem = os.path.splitext(path)[0]
    return stem[: -len("_internal")] if stem.endswith("_internal") else stem


def graph(root, dirs):
    edges = {}
    for d in dirs:
        folder = os.path.join(root, d)
        if not os.path.isdir(folder):
            continue
        names = []  # the folder's sources, its sub-folders' (engine/'s layers) included
        for top, subdirs, files in os.walk(folder):
            subdirs.sort()
            names += [os.path.relpath(os.path.join(top, f), root) for f in sorted(files)]
        for rel in names:
            if not rel.endswith((".c", ".h")):
                continue
            here = os.path.dirname(rel)
            src = module_of(rel)
            edges.setdefault(src, set())
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                target = os.path.normpath(os.path.join(here, inc))
                if not os.path.isfile(os.path.join(root, target)):
                    continue  # generated (build/gen) or not ours
                dst = module_of(target)
                if dst != src:
                    edges[src].add(dst)
    return edges


def call_graph(objects):
    """a -> b when a.o uses a symbol that b.o defines: one `nm` for every object."""
    out = subprocess.run(["nm", "-A", *objects], capture_output=True, text=True, check=True).stdout
    defined, used = {}, {}
    for line in out.splitlines():
        path, _, rest = line.partition(":")  # -A: "PATH:[ADDR] TYPE SYMBOL"
        fields = rest.split()
        if len(fields) < 2:
            continue
        kind, symbol = fields[-2], fields[-1]
        module = os.path.splitext(path.split(os.sep, 1)[-1])[0]
        if kind == "U":
            used.setdefault(module, set()).add(symbol)
        elif kind.isupper():  # global: text, data, bss, read-only, common
            defined[symbol] = module
    edges = {os.path.splitext(o.split(os.sep, 1)[-1])[0]: set() for o in objects}
    for module, symbols in used.items():
        edges[module] |= {defined[s] for s in symbols if defined.get(s, module) != module}
    return edges


def circles(edges):
    """Every strongly connected component of more than one module (Tarjan), each reported as one
    shortest cycle through its first module, so that the line names a loop to cut."""
    index, low, on, stack, comps = {}, {}, set(), [], []

    def visit(v):
        # Iterative Tarjan: the graphs are small, but recursion depth should not depend on them.
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        comps.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    out = []
    for comp in sorted(comps):
        members, start = set(comp), comp[0]
        # Breadth-first from start back to start inside the component: the shortest loop.
        prev, queue, seen = {}, [start], {start}
        found = None
        while queue and not found:
            nxt = []
            for v in queue:
                for w in sorted(edges.get(v, ())):
                    if w not in members:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in seen:
                        seen.add(w)
                        prev[w] = v
                        nxt.append(w)
                if found:
                    break
            queue = nxt
        loop = [found]
        while loop[-1] != start:
            loop.append(prev[loop[-1]])
        loop.reverse()
        rest = [m for m in comp if m not in loop]
        out.append((loop, rest))
    return out


def main(argv):
    calls = len(argv) > 1 and argv[1] == "--objects"
    if calls:
        found = circles(call_graph(argv[2:]))
    else:
        root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        found = circles(graph(root, argv[2:] or ["engine", "cli", "tui", "plot"]))
    what, cut = ("a call circle", "cut one call") if calls else ("an import circle", "cut one include")
    for loop, rest in found:
        more = f"; {', '.join(rest)} in the same knot" if rest else ""
        print(f"circles: {' -> '.join(loop + [loop[0]])}: {what} ({cut}{more})", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
