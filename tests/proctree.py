"""What a situ process has started, found through the process tree and the session, for the
Python suites (the terminal suites' twin is tests/tui/lib.sh). Never by command line: a ready
child's parameters come on its stdin, and a child forked by the simulation server runs the
server's command line, so a command line says neither what nor whose a process is.

- descendants(pid): every process below pid in the tree (the server's children are grandchildren);
- simulations(pid): those that run a simulation: situ-sim names itself "situ-sim:FIDELITY" when
  its simulation starts (engine/sim/sim_isolate.c);
- in_session(sid): every process of a session but its leader. The process module gives each
  child a process group of its own, never a session, so a child whose parent died (reparented out
  of the tree) is still found: start the program under test with start_new_session=True (or in a
  tmux pane, whose process leads a session) and check in_session(its pid) once it has ended."""
import os


def _stat(pid):
    """(ppid, session) of pid, or None if it is gone (a zombie has ended: only its status is left
    for whoever it was handed to)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:  # ENOENT, or ESRCH while it exits
        return None
    # "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses.
    fields = text[text.rindex(")") + 2:].split()  # state ppid pgrp session ...
    return None if fields[0] == "Z" else (int(fields[1]), int(fields[3]))


def _all():
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(name)
            if st:
                yield int(name), st


def comm(pid):
    """The name a process gave itself (or its program's), "" if it is gone."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def descendants(pid):
    children = {}
    for p, (ppid, _) in _all():
        children.setdefault(ppid, []).append(p)
    out, queue = [], list(children.get(pid, []))
    while queue:
        p = queue.pop(0)
        out.append(p)
        queue.extend(children.get(p, []))
    return out


def simulations(pid, fidelity=None):
    """pid's simulations (at that fidelity if given)."""
    want = f"situ-sim:{fidelity}" if fidelity else None
    return [p for p in descendants(pid)
            if comm(p).startswith("situ-sim:") and (want is None or comm(p) == want)]


def in_session(sid):
    return [p for p, (_, s) in _all() if s == sid and p != sid]


def describe(pids):
    """"1234 situ-sim:full, 1240 situ" for a failure message."""
    return ", ".join(f"{p} {comm(p)}" for p in pids)
