#!/usr/bin/env python3
"""The bad-input corpus: every case of tests/bad/cases.tsv through the real binary.

Usage: python3 tests/bad/run.py PATH/TO/situ [-v] [-k SUBSTRING] [-j JOBS] [--slow]

Each case must end with the expected exit status (2 for bad input, 3 only where the simulation
itself fails), exactly one line on stderr that starts with "situ: ", contains the case's needle
(the file or the parameter it names) and no control character; nothing on stdout, no signal or
core dump, no sanitizer report, and, for commands with --out, nothing written at the destination
(neither the file nor a temporary beside it). The last line is "bad: N passed, M failed"; the
exit status is non-zero when anything failed. Works against build-asan/situ as well (`make asan`
runs it). When run as root, cases reading an unreadable file drop to uid 'nobody' (setpriv), or
are skipped and counted apart.

cases.tsv has one case per line, tab-separated: NAME, EXIT, NEEDLE, ARGS (# comments, blank lines
ignored). ARGS is split like a shell would (shlex); NEEDLE and ARGS may use
  @f/PATH   tests/bad/files/PATH (committed inputs)
  @g/NAME   an input generated at run time (huge, links, directories, unreadable: see generate())
  @t/NAME   NAME in the case's own empty temporary directory (destinations of --out)
and an ARGS word written 'e:TEXT' (single-quoted, so that shlex keeps the backslashes) is TEXT
with Python escapes decoded ('e:1\\n2', 'e:\\xff'): arguments can hold newlines, escape
sequences and bytes that are not UTF-8.
Cases run in a temporary working directory, so that relative paths and core files stay there.
A case whose NAME ends in [slow] (a platform refused only once SimGrid has chewed on it for up to
DIGEST_SECONDS_MAX: 13 to 16 s under ASan) runs only with --slow (`make test-slow`).
"""
import codecs
import concurrent.futures
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
MANIFEST = os.path.join(HERE, "cases.tsv")
TIMEOUT = 30
SANITIZER = re.compile(rb"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|"
                       rb"ThreadSanitizer|MemorySanitizer")

GOOD_XML = os.path.join(FILES, "xml", "good.xml")
GOOD_HOSTS = os.path.join(FILES, "hostfile", "good")
GOOD_CONF = os.path.join(FILES, "preset", "good.conf")
GOOD_JSONL = os.path.join(FILES, "merge", "good.jsonl")


def cluster(attrs):
    # A platform SimGrid 3.32 would read but for `attrs` (it requires the DOCTYPE).
    return ('<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
            '<platform version="4.1"><cluster id="c" prefix="dahu-" '
            'suffix=".grid5000.fr" radical="1-32" ' + attrs + '/></platform>\n')


def generate(gen):
    """Inputs too big, too odd or too environment-specific to commit."""
    made = {}

    def write(name, data, mode=None):
        path = os.path.join(gen, name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        if mode is not None:
            os.chmod(path, mode)
        made[name] = path

    base = 'speed="1Gf" core="32" bw="10Gbps" lat="15us"'
    # Huge attributes: 16 MB in a number, a name, a list; a huge unknown attribute (SimGrid's).
    write("huge-speed.xml", cluster('speed="' + "9" * (4 << 20) + 'Gf" core="32" bw="10Gbps" '
                                    'lat="15us"'))
    write("huge-id.xml", cluster(base).replace('id="c"', 'id="' + "c" * (4 << 20) + '"'))
    write("huge-radical.xml", cluster(base).replace('radical="1-32"',
                                                    'radical="' + "1," * (1 << 20) + '1"'))
    # Deep nesting: 100000 zones.
    write("deep.xml", '<?xml version="1.0"?>\n<platform version="4.1">' + "<zone>" * 100000 +
          "</zone>" * 100000 + "</platform>\n")
    # Many hosts: a radical of a million.
    write("million-hosts.xml", cluster(base).replace('radical="1-32"', 'radical="1-1000000"'))
    # Enormous lines.
    write("huge-line.hostfile", "dahu-1" + " " * (1 << 20) + "slots=1\n")
    write("huge-line.conf", "ratio = " + "1" * (1 << 20) + "\n")
    write("huge-comment-line.conf", "# " + "x" * 8000 + " ratio = 7\n")
    write("huge-line.jsonl", '{"makespan": ' + "1" * (4 << 20) + "}\n")
    write("huge-string.jsonl", '{"config": "' + "x" * (4 << 20) + '"}\n')
    write("many-lines.hostfile", "dahu-1 slots=1\n" * 100000)
    write("huge-line.log", "x" * (2 << 20))
    write("huge-line.csv", "region,ranks,iterations,total\n" + "1" * (2 << 20) + "\n")
    # Unreadable copies of good inputs: the only problem is the permission.
    for name, src in (("unreadable.xml", GOOD_XML), ("unreadable.hostfile", GOOD_HOSTS),
                      ("unreadable.conf", GOOD_CONF), ("unreadable.jsonl", GOOD_JSONL)):
        with open(src, "rb") as f:
            write(name, f.read(), 0)
    # Directories, links and special files where a file is expected.
    for name in ("dir", "dir.xml", "dir.conf", "dir.jsonl", "dir.csv", "dir.lua", "dir.log"):
        os.mkdir(os.path.join(gen, name))
        made[name] = os.path.join(gen, name)
    made["dir/"] = made["dir"] + "/"
    for a, b in (("loop.xml", "loop2.xml"), ("loop.conf", "loop2.conf"), ("loop", "loop2"),
                 ("loop.jsonl", "loop2.jsonl")):
        os.symlink(b, os.path.join(gen, a))
        os.symlink(a, os.path.join(gen, b))
        made[a] = os.path.join(gen, a)
    os.symlink("nowhere.xml", os.path.join(gen, "dangling.xml"))
    made["dangling.xml"] = os.path.join(gen, "dangling.xml")
    os.mkfifo(os.path.join(gen, "fifo.xml"))
    made["fifo.xml"] = os.path.join(gen, "fifo.xml")
    for name in ("fifo.hostfile", "fifo.log", "fifo.csv", "fifo.conf", "fifo.lua", "fifo.jsonl"):
        os.mkfifo(os.path.join(gen, name))
        made[name] = os.path.join(gen, name)
    # A file where a directory is expected in the path.
    write("file", "not a directory\n")
    made["notdir.xml"] = os.path.join(gen, "file", "x.xml")
    made["notdir.csv"] = os.path.join(gen, "file", "x.csv")
    # A valid analytics file whose name holds a newline (for --emit-commands).
    write("nl\nname.lua", 'return {name = "x", cost = function(ctx) return 1e-9 end}\n')
    made["newline.lua"] = os.path.join(gen, "nl\nname.lua")
    # A dangling link where --out points: refused, and left as it is.
    os.symlink(os.path.join(gen, "nowhere", "t.csv"), os.path.join(gen, "dangling.csv"))
    made["dangling.csv"] = os.path.join(gen, "dangling.csv")
    # A dangling link where --out DIR points, and a directory where the files to be written are
    # a dangling link (advise.csv) and a directory (fig8.png): refused before any work.
    os.symlink(os.path.join(gen, "nowhere-dir"), os.path.join(gen, "dangling-dir"))
    made["dangling-dir"] = os.path.join(gen, "dangling-dir")
    made["dangling-dir/"] = made["dangling-dir"] + "/"
    os.mkdir(os.path.join(gen, "out-traps"))
    os.symlink(os.path.join(gen, "nowhere", "a.csv"), os.path.join(gen, "out-traps", "advise.csv"))
    os.mkdir(os.path.join(gen, "out-traps", "fig8.png"))
    made["out-traps"] = os.path.join(gen, "out-traps")
    for name in ("advise.csv", "fig8.png"):
        made["out-traps/" + name] = os.path.join(gen, "out-traps", name)
    # Entity expansion that is quadratic, not exponential (libxml2 only stops the latter).
    big = "x" * 100000
    write("quadratic-blowup.xml", '<?xml version="1.0"?>\n<!DOCTYPE platform [<!ENTITY a "' + big +
          '">]>\n' + cluster(base).split("\n", 2)[2].replace('id="c"', 'id="' + "&a;" * 2000 + '"'))
    # JSON nested deeper than any parser should recurse.
    write("deep-nesting.jsonl", "[" * 100000 + "]" * 100000 + "\n")
    write("deep-object.jsonl", '{"a":' * 5000 + "1" + "}" * 5000 + "\n")
    # Enormous arguments (not paths).
    made["huge-number"] = "9" * 5000
    made["long-flag"] = "--" + "x" * 3000
    made["long-name"] = "n" * 300
    made["long-out.csv"] = "/tmp/" + "o" * 300 + "/" + "o" * 300 + ".csv"
    # A path longer than any buffer of Situ's (PARAMS_PATH_MAX is 512) and than PATH_MAX.
    made["long-path"] = "/tmp/" + "p" * 600 + ".xml"
    made["very-long-path"] = "/" + "/".join(["d" * 200] * 30) + ".xml"
    return made


def expand(text, gen, tmp):
    def repl(m):
        kind, name = m.group(1) or m.group(3), m.group(2) or m.group(4)
        if kind == "f":
            return os.path.join(FILES, name)
        if kind == "t":
            return os.path.join(tmp, name)
        if name not in gen:
            raise KeyError(f"unknown generated input @g/{name}")
        return gen[name]
    # A generated name holds no ':' (a needle's "@g/dir: cannot read" names @g/dir).
    return re.sub(r"@([ft])/([^\s'\"]+)|@(g)/([^\s'\":]+)", repl, text)


def argument(word, gen, tmp):
    """One argv entry as bytes (e: words may hold any byte)."""
    if word.startswith("e:"):
        raw = codecs.decode(word[2:], "unicode_escape").encode("latin-1")
        return expand(raw.decode("latin-1"), gen, tmp).encode("latin-1")
    return os.fsencode(expand(word, gen, tmp))


def load(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 4:
                raise SystemExit(f"{path}:{lineno}: expected 4 tab-separated columns, got {len(cols)}")
            name, code, needle, args = cols
            cases.append({"line": lineno, "name": name, "exit": int(code), "needle": needle,
                          "args": shlex.split(args)})
    return cases


def as_nobody():
    """When run as root, unreadable files are readable: such cases drop to 'nobody' if they can."""
    if os.getuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"] if setpriv else None


def run_case(situ, case, gen, root, nobody):
    try:
        return check_case(situ, case, gen, root, nobody)
    except Exception as e:  # a broken case is a failed case, not a broken runner
        return case, [f"{type(e).__name__}: {e}"], None


def check_case(situ, case, gen, root, nobody):
    tmp = tempfile.mkdtemp(prefix="case-", dir=root)
    os.chmod(tmp, 0o777)
    why = []
    try:
        argv = [os.fsencode(situ)] + [argument(w, gen, tmp) for w in case["args"]]
        needle = expand(case["needle"], gen, tmp)
        prefix = []
        if any(b"unreadable" in a for a in argv) and os.getuid() == 0:
            if nobody is None:
                return case, None, "skipped: running as root and setpriv is missing"
            prefix = [os.fsencode(x) for x in nobody]
        outs = []
        for i, a in enumerate(argv):
            if a == b"--out" and i + 1 < len(argv):
                outs.append(argv[i + 1])
            elif a.startswith(b"--out="):
                outs.append(a[6:])
        existed = {o: os.path.lexists(o) for o in outs}
        try:
            p = subprocess.run(prefix + argv, stdin=subprocess.DEVNULL, capture_output=True,
                               cwd=tmp, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return case, [f"no answer after {TIMEOUT} s (hang?)"], None
        except OSError as e:
            return case, [f"cannot run: {e}"], None
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode < 0:
            why.append(f"killed by signal {-p.returncode}")
        elif p.returncode != case["exit"]:
            why.append(f"exit {p.returncode}, expected {case['exit']}")
        if SANITIZER.search(p.stderr):
            why.append("sanitizer report on stderr")
        if p.stdout:
            why.append(f"stdout is not empty ({len(p.stdout)} bytes)")
        lines = err.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) != 1:
            why.append(f"stderr has {len(lines)} lines, expected 1")
        elif not lines[0].startswith("situ: "):
            why.append("stderr does not start with 'situ: '")
        if re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", p.stderr):
            why.append("stderr holds control characters (escape sequences, tabs, NUL)")
        if needle not in err:
            why.append(f"stderr does not name {needle!r}")
        for o in outs:
            d = os.path.dirname(o) or tmp.encode()
            if not existed[o] and os.path.lexists(o):
                why.append(f"--out {os.fsdecode(o)} was written")
            if os.path.isdir(d):
                base = os.path.basename(o)
                left = [n for n in os.listdir(d) if n != base and
                        (n.startswith(base) or n.startswith(b"." + base + b"."))]
                if left:
                    why.append(f"left beside --out: {[os.fsdecode(n) for n in left]}")
        cores = [n for n in os.listdir(tmp) if n == "core" or n.startswith("core.")]
        if cores:
            why.append(f"core dump: {cores}")
        return case, (why, p.stdout, err), None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    jobs, slow = max(2, os.cpu_count() or 2), False
    rest = []
    i = 0
    while i < len(args):
        if args[i] == "-v":
            pass
        elif args[i] == "-k" and i + 1 < len(args):  # the older spelling of CASE=PATTERN
            os.environ["CASE"] = args[i + 1]
            i += 1
        elif args[i] == "--slow":
            slow = True
        elif args[i] == "-j" and i + 1 < len(args):
            jobs = int(args[i + 1])
            i += 1
        else:
            rest.append(args[i])
        i += 1
    if len(rest) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    situ = os.path.abspath(rest[0])
    if not os.access(situ, os.X_OK):
        print(f"bad: {situ} is not an executable", file=sys.stderr)
        print("bad: 0 passed, 1 failed")
        sys.exit(1)
    cases = load(MANIFEST)
    cases = [c for c in cases if suite.selected(c["name"])]  # CASE=PATTERN (tests/suite.py)
    if suite.none_matched("bad", len(cases)):
        print("bad: 0 passed, 1 failed")
        sys.exit(1)
    if not slow:
        cases = [c for c in cases if not c["name"].endswith("[slow]")]
    root = tempfile.mkdtemp(prefix="situ-bad.")
    os.chmod(root, 0o755)
    passed = failed = skipped = 0
    try:
        gen_dir = os.path.join(root, "gen")
        os.mkdir(gen_dir)
        os.chmod(gen_dir, 0o755)
        gen = generate(gen_dir)
        nobody = as_nobody()
        if nobody and not subprocess.run(nobody + ["test", "-x", situ], capture_output=True).returncode == 0:
            nobody = None  # 'nobody' cannot run this binary: skip instead
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run_case, situ, c, gen, root, nobody) for c in cases]
            for fut in futures:
                case, result, skip = fut.result()
                title = f"{case['name']} (cases.tsv:{case['line']})"
                if skip:
                    skipped += 1
                    if verbose:
                        print(f"skip {title}: {skip}")
                    continue
                why, out, err = result if isinstance(result, tuple) else (result, b"", "")
                if not why:
                    passed += 1
                    if verbose:
                        print(f"ok   {title}: {err.strip()[:150]}")
                    continue
                failed += 1
                print(f"FAIL {title}: {'; '.join(why)}")
                for l in err.splitlines()[:4]:
                    print(f"    stderr: {l[:300]}")
                for l in out.decode('utf-8', 'replace').splitlines()[:2]:
                    print(f"    stdout: {l[:300]}")
    finally:
        for dirpath, dirnames, filenames in os.walk(root):
            for n in filenames:
                p = os.path.join(dirpath, n)
                if not os.path.islink(p):
                    try:
                        os.chmod(p, 0o600)
                    except OSError:
                        pass
        shutil.rmtree(root, ignore_errors=True)
    if skipped:
        print(f"bad: {skipped} cases skipped (unreadable files while running as root)")
    print(f"bad: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
