#!/usr/bin/env python3
"""One process module, and fork only to exec (engine/base/child.h).

Every child of Situ starts in engine/base/child.c: one place gives it its process group, its
death with its parent, its descriptors and its place in the registry a fatal signal empties.
This reads every C file of the tree and fails on

- a call that starts a process (fork, vfork, _Fork, clone, posix_spawn, uv_spawn, system,
  popen) anywhere but engine/base/child.c;
- in that file, a function that forks but never execs (directly, or through a function of the
  same file that does). After fork() only the forking thread exists in the copy, and any lock
  another thread held then (the allocator's, stdio's, libuv's) stays held there for ever: a
  process that may have threads (the explorer, whose platforms are read on its thread pool;
  Lua's watchdog) forks only to exec.

An exec alone (a process that becomes another program, as `situ __simulate` becomes the
helper) starts no child and is allowed anywhere.

usage: check-forks.py [ROOT [DIR ...]]   (default: this tree; engine cli tui helper smpi plot)
One line per offence, exit 1; exit 0 when every child starts in the process module."""
import os
import re
import sys

EXECS = {"execv", "execve", "execvp", "execvpe", "execl", "execlp", "execle", "fexecve",
         "posix_spawn", "posix_spawnp"}
FORKS = {"fork", "vfork", "_Fork"}
STARTS = FORKS | {"clone", "clone3", "posix_spawn", "posix_spawnp", "uv_spawn", "system", "popen"}
MODULE = "engine/base/child.c"
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}


def strip(text):
    """The C text with comments, strings and character constants blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(name, line, body) of each function defined at file level."""
    found, depth, start, name, line = [], 0, 0, None, 0
    for m in re.finditer(r"[{}]", text):
        if m.group() == "{":
            if depth == 0:
                head = text[:m.start()]
                d = re.search(r"(\w+)\s*\([^;{}]*\)\s*$", head)
                name = d.group(1) if d and d.group(1) not in KEYWORDS else None
                start, line = m.end(), head.count("\n") + 1
            depth += 1
        else:
            depth -= 1
            if depth == 0 and name:
                found.append((name, line, text[start:m.start()]))
                name = None
    return found


def calls(body):
    return {c for c in re.findall(r"\b(\w+)\s*\(", body) if c not in KEYWORDS}


def check_file(path, shown):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip(f.read())
    funcs = functions(text)
    called = {name: calls(body) for name, _, body in funcs}
    execs = {name for name, c in called.items() if c & EXECS}
    grew = True
    while grew:  # a function of this file that reaches an exec through another
        more = {name for name, c in called.items() if c & execs} - execs
        execs |= more
        grew = bool(more)
    bad = []
    if shown != MODULE:
        for name, line, body in funcs:
            for call in sorted(called[name] & STARTS):
                at = line + body[:re.search(r"\b%s\s*\(" % call, body).start()].count("\n")
                bad.append(f"forks: {shown}:{at}: {name}() calls {call}(): every child starts "
                           f"in the process module ({MODULE}: child_start, or engine/run/proc.h "
                           "on a libuv loop)")
        return bad
    for name, line, body in funcs:
        if called[name] & FORKS and name not in execs:
            at = line + body[:body.find("fork")].count("\n")
            bad.append(f"forks: {shown}:{at}: {name}() forks and never execs: a process that "
                       "may have threads must not run a copy of itself; exec instead "
                       "(in_child, engine/base/child.c)")
    return bad


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = argv[2:] or ["engine", "cli", "tui", "helper", "smpi", "plot"]
    bad = []
    for d in dirs:
        for top, _, files in sorted(os.walk(os.path.join(root, d))):
            for f in sorted(files):
                if f.endswith(".c"):
                    path = os.path.join(top, f)
                    bad += check_file(path, os.path.relpath(path, root))
    for line in bad:
        print(line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
