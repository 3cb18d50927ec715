#!/usr/bin/env python3
"""The build's own tools: tools/check-circles.py finds import circles (two modules, a longer loop,
the knot around it) and only those (a private NAME_internal.h, a generated header, a header of
another folder with the same stem), and call circles among objects; tools/embed-lua.sh gives the
C compiler every byte of a file; every Lua state is made in one place, where the sandbox is built;
tests/mutants/run.py --check names every mutant that no longer applies or compiles, and only those;
tools/check-forks.py finds a fork that never execs (and this tree has none); tools/check-layers.sh
--front-end refuses a program that needs SimGrid (situ-sim) and passes situ.
Ends with 'tools: N passed, M failed'."""
import os
import re
import runpy
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import suite  # noqa: E402

SUITE = suite.Suite("tools")
check = SUITE.check
CIRCLES = os.path.join(ROOT, "tools", "check-circles.py")
FORKS = os.path.join(ROOT, "tools", "check-forks.py")


def tree(files):
    """A scratch source tree: {path: text}."""
    d = tempfile.mkdtemp(prefix="situ-tools-")
    for path, text in files.items():
        os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as f:
            f.write(text)
    return d


def circles(files):
    p = subprocess.run([sys.executable, CIRCLES, tree(files), "engine", "cli", "tui", "plot"],
                       capture_output=True, text=True)
    return p.returncode, p.stderr.splitlines()


def inc(*names):
    return "".join(f'#include "{n}"\n' for n in names)


def two_modules():
    rc, lines = circles({"engine/a.c": inc("a.h", "b.h"), "engine/a.h": "",
                         "engine/b.c": inc("b.h"), "engine/b.h": inc("a.h")})
    assert rc == 1, f"exit {rc}"
    assert lines == ["circles: engine/a -> engine/b -> engine/a: an import circle (cut one include)"], lines


def longer_loop_and_knot():
    rc, lines = circles({"engine/a.c": inc("b.h"), "engine/b.c": inc("c.h"), "engine/c.h": inc("a.h"),
                         "engine/a.h": "", "engine/b.h": "", "engine/d.c": inc("a.h", "c.h"),
                         "engine/d.h": "", "engine/c.c": inc("d.h")})
    assert rc == 1 and len(lines) == 1, lines
    assert "engine/a -> engine/b -> engine/c -> engine/a" in lines[0], lines
    assert "engine/d in the same knot" in lines[0], lines


def across_folders():
    rc, lines = circles({"cli/cli.h": inc("../engine/x.h"), "cli/main.c": inc("cli.h"),
                         "engine/x.c": inc("x.h", "../cli/cli.h"), "engine/x.h": ""})
    assert rc == 1 and len(lines) == 1, lines
    assert "cli/cli -> engine/x -> cli/cli" in lines[0], lines


def not_circles():
    rc, lines = circles({
        # a private header is its module's own: script.c -> script_internal.h -> script.h
        "engine/lua/script.c": inc("script.h", "script_internal.h", "embedded/sandbox_lua.h"),
        "engine/lua/script.h": "", "engine/lua/script_internal.h": inc("script.h"),
        "engine/lua/script_async.c": inc("script_async.h", "script_internal.h"),
        "engine/lua/script_async.h": inc("script.h"),
        # the same stem in two folders is two modules
        "cli/advise.h": inc("../engine/model/advise.h"), "engine/model/advise.c": inc("advise.h"),
        "engine/model/advise.h": "", "plot/chart.c": inc("chart.h", "../engine/lua/script.h"),
        "plot/chart.h": ""})
    assert rc == 0 and not lines, lines


def this_tree():
    p = subprocess.run([sys.executable, CIRCLES], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr


def call_circles(files):
    """Compiles a scratch tree's C files into build/ beside it, then the check of their objects."""
    d = tree(files)
    objects = []
    for path in sorted(files):
        obj = os.path.join("build", os.path.splitext(path)[0] + ".o")
        os.makedirs(os.path.join(d, os.path.dirname(obj)), exist_ok=True)
        subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-c", "-o", obj, path], cwd=d,
                       check=True, capture_output=True)
        objects.append(obj)
    p = subprocess.run([sys.executable, CIRCLES, "--objects", *objects], capture_output=True,
                       text=True, cwd=d)
    return p.returncode, p.stderr.splitlines()


def two_files_calling_each_other():
    # Each includes only a shared private header, as runner.c and runner_child.c once did.
    shared = "int a(void);\nint b(void);\n"
    rc, lines = call_circles({"engine/run/a.c": shared + "int a(void) { return b(); }\n",
                              "engine/run/b.c": shared + "int b(void) { return 0; }\n"
                                                         "int c(void) { return a(); }\n"})
    assert rc == 1, f"exit {rc}: {lines}"
    assert lines == ["circles: engine/run/a -> engine/run/b -> engine/run/a: a call circle "
                     "(cut one call)"], lines


def calls_one_way():
    # A calls b; both have a static helper of the same name, and use the same global (defined once).
    rc, lines = call_circles({
        "engine/a.c": "int b(void);\nextern int shared;\nstatic int h(void) { return shared; }\n"
                      "int a(void) { return b() + h(); }\n",
        "engine/b.c": "int shared = 1;\nstatic int h(void) { return 2; }\nint b(void) { return h(); }\n"})
    assert rc == 0 and not lines, lines


def this_build_calls():
    objects = [os.path.relpath(os.path.join(top, f), ROOT)
               for d in ("engine", "tui", "cli", "plot")
               for top, _, files in os.walk(os.path.join(ROOT, "build", d)) for f in files
               if f.endswith(".o")]
    assert len(objects) > 80, f"{len(objects)} objects: build first"
    p = subprocess.run([sys.executable, CIRCLES, "--objects", *objects], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr


def embed_every_byte():
    d = tempfile.mkdtemp(prefix="situ-embed-")
    data = bytes(range(256)) + b"-- ??= trigraphs stay bytes\n" + bytes(range(255, -1, -1))
    with open(os.path.join(d, "all.lua"), "wb") as f:
        f.write(data)
    with open(os.path.join(d, "all_lua.h"), "w") as out:
        subprocess.run(["sh", os.path.join(ROOT, "tools", "embed-lua.sh"), "all_lua",
                        os.path.join(d, "all.lua")], stdout=out, check=True)
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write('#include <stdio.h>\n#include "all_lua.h"\n'
                "int main(void)\n{\n"
                "    if (all_lua[sizeof all_lua - 1] != 0)\n        return 1;\n"
                "    fwrite(all_lua, 1, sizeof all_lua - 1, stdout);\n    return 0;\n}\n")
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", os.path.join(d, "t"),
                    os.path.join(d, "main.c")], check=True, capture_output=True)
    got = subprocess.run([os.path.join(d, "t")], capture_output=True, check=True).stdout
    assert got == data, f"{len(got)} bytes back of {len(data)}"


def embed_bad_input():
    p = subprocess.run(["sh", os.path.join(ROOT, "tools", "embed-lua.sh"), "x", "/nonexistent.lua"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.strip() == "embed-lua: cannot read /nonexistent.lua", p


def one_lua_state_maker():
    """Every Lua interpreter of Situ is made by script_new (engine/lua/script.c), which builds the
    sandbox before anything else runs in it: no other file makes a state or opens the libraries."""
    makers = re.compile(r"\b(lua_newstate|luaL_newstate|luaL_openlibs|luaopen_\w+)\s*\(")
    found = []
    for top in ("engine", "cli", "tui", "plot", "smpi"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith((".c", ".h", ".cpp")):
                    path = os.path.join(d, f)
                    with open(path, encoding="utf-8", errors="replace") as src:
                        found += [(os.path.relpath(path, ROOT), m) for m in makers.findall(src.read())]
    assert sorted(found) == [("engine/lua/script.c", "luaL_openlibs"),
                             ("engine/lua/script.c", "lua_newstate")], found


MUTANTS = os.path.join(ROOT, "tests", "mutants")


def mutants_check(mutants):
    """(exit status, output lines) of run.py --check over a list of mutants (dicts)."""
    with tempfile.TemporaryDirectory(prefix="situ-mutants-list-") as d:
        path = os.path.join(d, "list.py")
        with open(path, "w") as f:
            f.write(f"MUTANTS = {mutants!r}\n")
        p = subprocess.run([sys.executable, os.path.join(MUTANTS, "run.py"), "--check", "--list",
                            path], capture_output=True, text=True, cwd=ROOT)
    return p.returncode, p.stdout.splitlines() + p.stderr.splitlines()


def rotten_mutants():
    # Built from the real list, so that the code's own moves do not break this test: a mutant
    # of a C file whose old text is one statement that no if guards, and one of a header (a
    # macro, whose mutant compiles only where it is used).
    real = runpy.run_path(os.path.join(MUTANTS, "list.py"))["MUTANTS"]

    def statement(m):
        if not m["file"].endswith(".c") or "\n" in m["old"] or not m["old"].endswith(";"):
            return False
        with open(os.path.join(ROOT, m["file"])) as f:
            before = f.read().split(m["old"])[0].rstrip()
        return before.endswith((";", "{"))
    c = next(m for m in real if statement(m))
    h = next(m for m in real if m["file"].endswith(".h"))
    others = sorted(f for f in os.listdir(os.path.join(ROOT, os.path.dirname(c["file"])))
                    if f.endswith(".c") and f != os.path.basename(c["file"]))
    elsewhere = os.path.join(os.path.dirname(c["file"]), others[0])

    def like(m, id, **kw):
        return {**m, "id": id, **kw}
    rotten = [
        like(c, "stale", old=c["old"] + " /* a comment the code does not have */"),
        like(c, "moved", file=elsewhere),
        like(c, "twice", old=";"),
        like(c, "no-file", file=c["file"] + ".gone"),
        like(c, "syntax", new=c["new"] + " )"),
        like(c, "warning", new=c["new"] + " { int mutant_unused; }"),  # -Werror, as the build
        like(h, "header", new=h["new"] + "\n#error the mutated header\n"),
        like(c, "nothing", new=c["old"]),
    ]
    rc, lines = mutants_check([c, h] + rotten)
    assert rc == 1, f"exit {rc}: {lines}"
    named = [l for l in lines if l.startswith("mutants: ")]
    assert len(named) == len(rotten), f"one line per rotten mutant, got: {lines}"
    said = dict(zip([m["id"] for m in rotten], named))
    want = {
        "stale": f"stale ({c['file']}): the text to mutate is not in it",
        "moved": f"moved ({elsewhere}): the text to mutate is not in it (it is in {c['file']} now)",
        "twice": f"twice ({c['file']}): the text to mutate occurs ",
        "no-file": f"no-file ({c['file']}.gone): cannot read it",
        "syntax": f"syntax ({c['file']}): the mutant does not compile: {c['file']}:",
        "warning": f"warning ({c['file']}): the mutant does not compile: {c['file']}:",
        "header": f"header ({h['file']}): the mutant does not compile (compiling ",
        "nothing": f"nothing ({c['file']}): its new text is its old text",
    }
    for id, line in said.items():
        assert line.startswith("mutants: " + want[id]), f"{id}: {line}"
    assert "mutant_unused" in said["warning"] and "the mutated header" in said["header"], said
    assert lines[-1] == (f"mutants --check: 2 of {len(rotten) + 2} mutants apply and compile; "
                         f"{len(rotten)} rotten (above): re-point their text in "
                         "tests/mutants/list.py"), lines


def sound_mutants():
    real = runpy.run_path(os.path.join(MUTANTS, "list.py"))["MUTANTS"]
    rc, lines = mutants_check(real[:3])
    assert rc == 0 and lines == ["mutants --check: 3 of 3 mutants apply and compile"], lines
    # Sound, but two under one id: the report could not say which one rotted.
    rc, lines = mutants_check(real[:2] + [{**real[2], "id": real[0]["id"]}])
    assert rc == 1 and lines[0] == (f"mutants: {real[0]['id']}: 2 mutants have this id (ids name "
                                    "them: make it unique)"), lines


def forks(files, dirs=("engine",)):
    p = subprocess.run([sys.executable, FORKS, tree(files), *dirs], capture_output=True,
                       text=True)
    return p.returncode, p.stderr.splitlines()


# The digest's child as it was: a copy of the process that goes on to start SimGrid.
FORK_COPY = """
static int digest_child(const char *path)
{
    pid_t pid = fork(); /* execv( in a comment is no exec */
    if (pid == 0) {
        const char *s = "execl(";
        _exit(digest_print(path, s));
    }
    return waitpid(pid, NULL, 0);
}
"""

# sim_smpi.c's shape: the child calls a function of the file that execs.
FORK_EXEC = """
static void run_it(char **argv)
{
    execvp(argv[0], argv);
    _exit(127);
}

static void through(char **argv)
{
    run_it(argv);
}

int start(char **argv)
{
    pid_t pid = fork();
    if (pid == 0)
        through(argv);
    return pid;
}
"""


def fork_without_exec():
    rc, lines = forks({"engine/base/child.c": "#include <unistd.h>\n" + FORK_COPY})
    assert rc == 1, f"exit {rc}: {lines}"
    assert len(lines) == 1 and lines[0].startswith(
        "forks: engine/base/child.c:5: digest_child() forks and never execs"), lines


def fork_then_exec():
    rc, lines = forks({"engine/base/child.c": FORK_EXEC})
    assert rc == 0 and not lines, lines


def child_outside_the_module():
    """Each way to start a process, outside engine/base/child.c: one line each, naming it."""
    rc, lines = forks({
        "engine/sim/a.c": FORK_EXEC,
        "engine/sim/b.c": "int spawn(void) { return posix_spawn(0, 0, 0, 0, 0, 0); }",
        "tui/procs/c.c": "int go(void *l, void *p, void *o)\n{\n    return uv_spawn(l, p, o);\n}",
        "engine/sim/d.c": "void w(void)\n{\n    if (_Fork() == 0)\n        _exit(0);\n}",
        "cli/e.c": "int become(char **argv) { return execv(argv[0], argv); }"},
        ("engine", "tui", "cli"))
    assert rc == 1, f"exit {rc}: {lines}"
    want = ["engine/sim/a.c:15: start() calls fork()", "engine/sim/b.c:1: spawn() calls posix_spawn()",
            "engine/sim/d.c:3: w() calls _Fork()", "tui/procs/c.c:3: go() calls uv_spawn()"]
    assert len(lines) == 4 and all(any(w in l for l in lines) for w in want), lines
    assert not any("cli/e.c" in l for l in lines), "an exec alone starts no child: " + str(lines)


def this_tree_forks():
    p = subprocess.run([sys.executable, FORKS], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr


def front_end_without_simgrid():
    layers = os.path.join(ROOT, "tools", "check-layers.sh")
    p = subprocess.run(["sh", layers, "--front-end", os.path.join(ROOT, "situ")],
                       capture_output=True, text=True)
    assert p.returncode == 0 and not p.stderr, f"situ: exit {p.returncode}: {p.stderr}"
    p = subprocess.run(["sh", layers, "--front-end", os.path.join(ROOT, "situ-sim")],
                       capture_output=True, text=True)
    lines = p.stderr.splitlines()
    assert p.returncode == 1 and len(lines) == 1 and "libsimgrid" in lines[0], \
        f"situ-sim: exit {p.returncode}: {lines}"


def main():
    check("two modules that include each other: one line naming both", two_modules)
    check("a longer loop, and the knot around it, on one line", longer_loop_and_knot)
    check("a circle across folders", across_folders)
    check("a private header, a generated one, one stem in two folders: no circle", not_circles)
    check("this tree has no import circle", this_tree)
    check("two files that call each other through a shared header: a call circle",
          two_files_calling_each_other)
    check("calls one way, same-named statics, a shared global: no call circle", calls_one_way)
    check("this build has no call circle", this_build_calls)
    check("check-forks: a fork whose child never execs is named, file, line and function",
          fork_without_exec)
    check("check-forks: a fork whose child execs through a helper of the file: accepted",
          fork_then_exec)
    check("check-forks: fork, posix_spawn, _Fork, uv_spawn outside the process module: named; "
          "an exec alone: accepted", child_outside_the_module)
    check("this tree: every fork execs", this_tree_forks)
    check("check-layers --front-end: situ needs no SimGrid, situ-sim does (and is refused)",
          front_end_without_simgrid)
    check("embed-lua.sh: every byte of the file, NUL-terminated, at -Werror", embed_every_byte)
    check("embed-lua.sh: an unreadable file is one line and exit 2", embed_bad_input)
    check("one maker of Lua states (script_new, which builds the sandbox first)",
          one_lua_state_maker)
    check("mutants --check: one line per mutant whose text is gone, moved, repeated, or whose "
          "mutated file or header does not compile", rotten_mutants)
    check("mutants --check: mutants that apply and compile, no line but the count; ids unique",
          sound_mutants)
    return SUITE.end()


if __name__ == "__main__":
    sys.exit(main())
