#!/usr/bin/python3
"""Label `hostile`: geomint under hostile input, faults and interrupted work (issue 12).

Usage: probe.py GEOMINT [--jobs N] [--list] [--only PATTERN] [--verbose] [--seed N]
                        [--timeout S]

Runs a few hundred hostile invocations of `run`, `study`, `report`, `matrix` and `list` and
classifies each one against the contract of issue 12:

  exit 0  done, every number written;
  exit 2  bad input: one line on stderr naming the argument (or file:line:column) and what is
          wrong; nothing written: an existing --out file is left byte for byte, a --out
          folder is not created, nothing goes to standard output;
  exit 3  an integration failure: one line with its type, the time and the step; the output
          up to the failure is kept;
  exit 4  an I/O error, named; the previous complete file is left;
  nothing else: no other status, no traceback, no abort, no signal.

Every invocation is one of
  handled  as specified;
  wrong    finished, but not as specified (status, lines, message, files, numbers);
  crashed  killed by a signal, exit 134/139, a Python traceback, "internal error", a
           sanitizer report, "terminate called";
  hung     still running after --timeout seconds (its process group is killed).

Setup invocations (a fresh study to damage or compare with) are not counted; when one fails,
the probe's own invocations are counted with its verdict. One line is printed for every
invocation that is not handled, then

  probe: N invocations: H handled, W wrong, C crashed, U hung

and the exit status is 0 only when W = C = U = 0. Standard library only (Debian's python3).
"""
from __future__ import annotations

import argparse
import csv
import fnmatch
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable

HANDLED, WRONG, CRASHED, HUNG = "handled", "wrong", "crashed", "hung"
CATEGORIES = ("run", "study", "report", "matrix", "resume", "concurrency", "io", "cli")

# Every child runs through this wrapper: SIGXFSZ ignored (a write beyond RLIMIT_FSIZE fails
# with EFBIG instead of killing the process: a full disk, as the program sees it), a file
# size cap (a runaway writer cannot fill the disk), an address-space cap (a runaway
# allocator cannot take the machine), and optionally another user (to make a folder
# unwritable when the probe runs as root).
WRAPPER = r"""
import os, resource, signal, sys
fsize, mem, uid = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
if fsize > 0:
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
if mem > 0:
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
if uid >= 0:
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
os.execv(sys.argv[4], sys.argv[4:])
"""

CRASH_PATTERNS = [
    (re.compile(r"Traceback \(most recent call last\)"), "a Python traceback"),
    (re.compile(r"internal error", re.I), "'internal error'"),
    (re.compile(r"AddressSanitizer|LeakSanitizer|ThreadSanitizer|MemorySanitizer"), "a sanitizer report"),
    (re.compile(r"UndefinedBehaviorSanitizer|runtime error:"), "an UBSan report"),
    (re.compile(r"terminate called"), "std::terminate"),
    (re.compile(r"Segmentation fault|core dumped|stack smashing|double free|free\(\): "), "a crash report"),
    (re.compile(r"Assertion `.*' failed"), "a failed assertion"),
]

TMP_RE = re.compile(r"\.tmp\.(\d+)$")
DEAD_PID = 424242  # above /proc/sys/kernel/pid_max (32768 by default): never a live process


# ---------------------------------------------------------------------------------------------
# Invocations and their verdicts

@dataclass
class Result:
    args: list[str]
    rc: int | None  # None: hung (killed by us)
    stdout: bytes
    stderr: str
    seconds: float
    hung: bool = False


@dataclass
class Record:
    probe: str
    category: str
    args: list[str]
    verdict: str
    reasons: list[str]
    stderr: str
    seconds: float
    work: str


class SetupError(Exception):
    def __init__(self, verdict: str, message: str):
        super().__init__(message)
        self.verdict = verdict


def show_args(work: str, args: list[str]) -> str:
    """The invocation as a command line, the probe's folder left out."""
    out = []
    for a in args:
        a = a.replace(work + "/", "").replace(work, ".").replace(os.path.dirname(work) + "/_shared/", "<shared>/")
        if len(a) > 80:
            a = a[:60] + f"...({len(a)} chars)"
        out.append(a if a and re.fullmatch(r"[-\w.,=/:+@%^]+", a) else repr(a))
    return "geomint " + " ".join(out)


def crash_of(res: Result) -> str | None:
    """Why `res` is a crash, or None."""
    if res.rc is not None and res.rc < 0:
        try:
            name = signal.Signals(-res.rc).name
        except ValueError:
            name = str(-res.rc)
        return f"killed by signal {name}"
    if res.rc in (134, 139):
        return f"exit status {res.rc} (abort / segfault)"
    for pattern, what in CRASH_PATTERNS:
        if pattern.search(res.stderr):
            return f"{what} on stderr"
    return None


def lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def numbers_in(text: str) -> list[float]:
    out = []
    for m in re.finditer(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\binf\b|10\^\d+", text):
        s = m.group(0)
        try:
            out.append(float("1e" + s[3:]) if s.startswith("10^") else float(s))
        except ValueError:
            pass
    return out


def names_number(*values: float) -> Callable[[str], str | None]:
    """A message check: the message shows one of `values` (within 1 %; inf for inf)."""
    def check(msg: str) -> str | None:
        for v in numbers_in(msg):
            for value in values:
                if value == float("inf") and v == value:
                    return None
                if value != float("inf") and v != 0 and abs(v - value) <= 0.01 * abs(value):
                    return None
        return f"the message does not show the estimate {' or '.join(f'{x:g}' for x in values)}"
    return check


def lacks(pattern: str, why: str) -> Callable[[str], str | None]:
    """A message check: the message must not match `pattern` (e.g. an unknown-key refusal
    where the key is to be understood)."""
    return lambda msg: why if re.search(pattern, msg, re.I) else None


NOT_UNKNOWN = lacks(r"unknown key|not expected|unknown option", "refused as an unknown key or option")


def line_col(spec: str, line: int | tuple[int, ...] | None) -> Callable[[str], str | None]:
    """A message check: the message names spec:line:column (any line when `line` is None)."""
    base = re.escape(os.path.basename(spec))
    lines = (line,) if isinstance(line, int) else line
    def check(msg: str) -> str | None:
        found = re.findall(base + r":(\d+):(\d+)", msg)
        if not found:
            return f"the message does not name {os.path.basename(spec)}:line:column"
        if lines is not None and all(int(l) not in lines for l, _ in found):
            return (f"the message names {os.path.basename(spec)}:{found[0][0]}:{found[0][1]}, "
                    f"not line {' or '.join(map(str, lines))}")
        return None
    return check


# ---------------------------------------------------------------------------------------------
# File-system snapshots: "left byte for byte", "not created"

def snapshot(path: str):
    if not os.path.lexists(path):
        return None
    st = os.lstat(path)
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            return ("file", hashlib.sha256(f.read()).hexdigest(), st.st_size)
    if stat.S_ISDIR(st.st_mode):
        return ("dir", {name: snapshot(os.path.join(path, name)) for name in sorted(os.listdir(path))})
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    return ("special",)


def snapshot_change(path: str, before, after) -> str | None:
    if before == after:
        return None
    if before is None:
        return f"{path} was created"
    if after is None:
        return f"{path} was removed"
    if before[0] != after[0]:
        return f"{path} changed from a {before[0]} to a {after[0]}"
    if before[0] == "file":
        return f"{path} was changed ({before[2]} -> {after[2]} bytes)"
    if before[0] == "dir":
        for name in sorted(set(before[1]) | set(after[1])):
            d = snapshot_change(os.path.join(path, name), before[1].get(name), after[1].get(name))
            if d:
                return d
    return f"{path} was changed"


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_temporaries(root: str) -> list[str]:
    """`*.tmp.<pid>` files under root whose process is gone."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + dirnames:
            m = TMP_RE.search(name)
            if m and not pid_alive(int(m.group(1))):
                found.append(os.path.join(dirpath, name))
    return found


# ---------------------------------------------------------------------------------------------
# Checks on written files

def read_text(path: str) -> str:
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def csv_problems(path: str | None, text: str | None = None, rows: int | None = None,
                 last_t: float | None = None, before_t: float | None = None) -> list[str]:
    """A `run` CSV: header t,..., every row complete and numeric, ending with a newline."""
    where = path or "standard output"
    if text is None:
        if not path or not os.path.isfile(path):
            return [f"{where} was not written"]
        text = read_text(path)
    if not text:
        return [f"{where} is empty"]
    if not text.endswith("\n"):
        return [f"{where} does not end with a newline (truncated)"]
    table = list(csv.reader(io.StringIO(text)))
    header, body = table[0], table[1:]
    if not header or header[0] != "t":
        return [f"{where}: the header does not start with t"]
    for i, row in enumerate(body, 2):
        if len(row) != len(header):
            return [f"{where}:{i}: {len(row)} fields, the header has {len(header)}"]
        try:
            [float(x) for x in row]
        except ValueError:
            return [f"{where}:{i}: a field is not a number"]
    if not body:
        return [f"{where}: no rows (the initial state is missing)"]
    if rows is not None and len(body) != rows:
        return [f"{where}: {len(body)} rows, expected {rows}"]
    t_end = float(body[-1][0])
    if last_t is not None and abs(t_end - last_t) > 1e-9 * max(1.0, abs(last_t)):
        return [f"{where}: the last row is at t = {t_end:g}, not T = {last_t:g}"]
    if before_t is not None and not t_end < before_t:
        return [f"{where}: the last row is at t = {t_end:g}, not before T = {before_t:g}"]
    return []


def cases_table(path: str) -> tuple[list[str], list[list[str]]] | None:
    if not os.path.isfile(path):
        return None
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        table = list(csv.reader(f))
    return (table[0], table[1:]) if table else ([], [])


def without_cpu(header: list[str], rows: list[list[str]]) -> list[list[str]]:
    """The table without its timing columns (cpu_s, cpu_repetitions, cpu_timed_s), which differ
    run to run."""
    drop = {i for i, name in enumerate(header) if name in ("cpu_s", "cpu_repetitions", "cpu_timed_s")}
    return [[v for i, v in enumerate(r) if i not in drop] for r in [header] + rows]


def study_problems(out: str, cases: int | None = None) -> list[str]:
    """A finished study folder: manifest.json an object, cases.csv complete, orders.csv."""
    problems = []
    try:
        with open(os.path.join(out, "manifest.json"), encoding="utf-8") as f:
            if not isinstance(json.load(f), dict):
                problems.append("manifest.json is not an object")
    except (OSError, ValueError) as e:
        problems.append(f"manifest.json unreadable: {e}")
    t = cases_table(os.path.join(out, "cases.csv"))
    if t is None:
        problems.append("cases.csv missing")
    else:
        header, rows = t
        if any(len(r) != len(header) for r in rows):
            problems.append("cases.csv has incomplete rows")
        if cases is not None and len(rows) != cases:
            problems.append(f"cases.csv has {len(rows)} rows, expected {cases}")
    if not os.path.isfile(os.path.join(out, "orders.csv")):
        problems.append("orders.csv missing")
    return problems


def same_results(fresh: str, out: str) -> list[str]:
    """`out` holds the numbers of the fresh run `fresh`: cases.csv without its timings, orders.csv,
    reproduction.csv, and every series file of the fresh run with the same content."""
    a, b = cases_table(os.path.join(fresh, "cases.csv")), cases_table(os.path.join(out, "cases.csv"))
    if a is None:
        return ["the fresh run wrote no cases.csv"]
    if b is None:
        return ["cases.csv missing"]
    ta, tb = without_cpu(*a), without_cpu(*b)
    if ta != tb:
        if len(ta) != len(tb):
            return [f"cases.csv has {len(tb) - 1} rows, a fresh run {len(ta) - 1}"]
        for i, (ra, rb) in enumerate(zip(ta, tb)):
            if ra != rb:
                diff = [f"{ta[0][k] if k < len(ta[0]) else k}: {x!r} vs fresh {y!r}"
                        for k, (y, x) in enumerate(zip(ra, rb)) if x != y][:2]
                return [f"cases.csv row {i + 1} differs from a fresh run's ({'; '.join(diff)})"]
    problems = []
    for name in ("orders.csv", "reproduction.csv"):
        pa, pb = os.path.join(fresh, name), os.path.join(out, name)
        if os.path.isfile(pa) and (not os.path.isfile(pb) or read_text(pa) != read_text(pb)):
            problems.append(f"{name} differs from a fresh run's")
    sa = os.path.join(fresh, "series")
    for name in sorted(os.listdir(sa)) if os.path.isdir(sa) else []:
        if TMP_RE.search(name):
            continue
        pb = os.path.join(out, "series", name)
        if not os.path.isfile(pb):
            problems.append(f"series/{name} missing")
            break
        if read_text(os.path.join(sa, name)) != read_text(pb):
            problems.append(f"series/{name} differs from a fresh run's")
            break
    return problems


def record_problem(path: str, case_id: str) -> str | None:
    """cases/<id>.json is a readable record of that case again."""
    try:
        with open(path, encoding="utf-8") as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        return f"{os.path.basename(path)} is still damaged ({e.__class__.__name__})"
    if not isinstance(j, dict) or j.get("case_id") != case_id:
        return f"{os.path.basename(path)} is still not a record of case {case_id}"
    return None


def valid_records(out: str) -> dict[str, dict]:
    """The finished-case records in out/cases, by file name."""
    found = {}
    d = os.path.join(out, "cases")
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(d, name), encoding="utf-8") as f:
                j = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(j, dict) and "case_id" in j:
            found[name] = j
    return found


# ---------------------------------------------------------------------------------------------
# The probe context: one temporary folder per probe, its invocations and their records

class Runner:
    """What all probes share: the binary, limits, the shared fresh runs."""

    def __init__(self, geomint: str, timeout: float, verbose: bool, seed: int, root: str):
        self.geomint = geomint
        self.timeout = timeout
        self.verbose = verbose
        self.seed = seed
        self.root = root
        self.records: list[Record] = []
        self.setups = 0
        self.lock = threading.Lock()
        self.print_lock = threading.Lock()
        self.shared: dict[str, object] = {}
        self.shared_locks: dict[str, threading.Lock] = {}
        with open(geomint, "rb") as f:
            sanitized = b"__asan_init" in f.read()
        self.memory = 0 if sanitized else 6 << 30
        self.fsize = 512 << 20
        self.models: list[tuple[str, str]] | None = None

    def once(self, key: str, make: Callable[[], object]):
        """A value computed once for all probes (a fresh run to compare with)."""
        with self.lock:
            lock = self.shared_locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self.shared:
                try:
                    self.shared[key] = make()
                except SetupError as e:
                    self.shared[key] = e
            value = self.shared[key]
        if isinstance(value, SetupError):
            raise value
        return value


class Ctx:
    def __init__(self, runner: Runner, name: str, category: str, calls: int, index: int):
        self.r = runner
        self.name = name
        self.category = category
        self.calls = calls
        self.random = random.Random(f"{runner.seed}:{name}")
        # Named by number, not by the probe's name: the messages show paths, and a path must
        # never be what satisfies a check ("unterminated-quote" names the quote).
        self.work = os.path.join(runner.root, f"p{index:03d}")
        os.makedirs(self.work)
        os.chmod(self.work, 0o755)
        self.io = os.path.join(runner.root, "_io", f"p{index:03d}")
        os.makedirs(self.io)
        self.counter = 0
        self.done = 0
        self.handles: list[dict] = []
        self.index = index

    # --- files
    def p(self, *parts: str) -> str:
        return os.path.join(self.work, *parts)

    def write(self, name: str, data: str | bytes) -> str:
        path = self.p(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    # --- processes
    def _popen(self, args: list[str], stdout: str | None, fsize: int | None, uid: int | None):
        self.counter += 1
        out_path = stdout or os.path.join(self.io, f"{self.counter}.out")
        err_path = os.path.join(self.io, f"{self.counter}.err")
        out_f = open(out_path, "wb")
        err_f = open(err_path, "wb")
        cmd = [sys.executable, "-c", WRAPPER, str(fsize if fsize is not None else self.r.fsize),
               str(self.r.memory), str(-1 if uid is None else uid), self.r.geomint, *args]
        env = None
        if uid is not None:  # another user: a home of its own (matplotlib writes its cache there)
            home = os.path.join(self.io, f"home{self.counter}")
            os.makedirs(home)
            os.chown(home, uid, uid)
            env = dict(os.environ, HOME=home, MPLCONFIGDIR=home)
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out_f, stderr=err_f,
                                cwd=self.work, start_new_session=True, env=env)
        out_f.close()
        err_f.close()
        self.handles.append({"proc": proc})
        return {"proc": proc, "args": args, "out": None if stdout else out_path, "err": err_path,
                "start": time.monotonic()}

    def spawn(self, args: list[str], stdout: str | None = None, fsize: int | None = None,
              uid: int | None = None):
        return self._popen(args, stdout, fsize, uid)

    def wait(self, h, timeout: float | None = None) -> Result:
        proc = h["proc"]
        limit = self.r.timeout if timeout is None else timeout
        hung = False
        try:
            proc.wait(timeout=max(0.0, limit - (time.monotonic() - h["start"])))
        except subprocess.TimeoutExpired:
            hung = True
            self.kill(h)
        seconds = time.monotonic() - h["start"]
        out = b""
        if h["out"]:
            with open(h["out"], "rb") as f:
                out = f.read(64 << 20)
        with open(h["err"], "rb") as f:
            err = f.read(1 << 20).decode("utf-8", "replace")
        return Result(h["args"], None if hung else proc.returncode, out, err, seconds, hung)

    def kill(self, h) -> None:
        try:
            os.killpg(h["proc"].pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        h["proc"].wait()

    def exec(self, args: list[str], stdout: str | None = None, fsize: int | None = None,
             uid: int | None = None) -> Result:
        return self.wait(self._popen(args, stdout, fsize, uid))

    def setup(self, args: list[str], **kw) -> Result:
        """An invocation the probe needs to succeed (not counted)."""
        with self.r.lock:
            self.r.setups += 1
        res = self.exec(args, **kw)
        self.note(res, None, [])
        if res.hung:
            raise SetupError(HUNG, f"setup `{self.show(args)}` hung")
        crash = crash_of(res)
        if crash:
            raise SetupError(CRASHED, f"setup `{self.show(args)}` crashed: {crash}")
        if res.rc != 0:
            raise SetupError(WRONG, f"setup `{self.show(args)}` failed with exit {res.rc}: "
                                    f"{(lines_of(res.stderr) or [''])[-1][:200]}")
        return res

    # --- checked invocations
    def check(self, args: list[str], status: int | tuple[int, ...], says: Iterable = (),
              unchanged: Iterable[str] = (), check: Callable[[Result], list[str]] | None = None,
              stdout: str | None = None, fsize: int | None = None, uid: int | None = None,
              keep_out: bool = True) -> Result:
        statuses = (status,) if isinstance(status, int) else tuple(status)
        watch = list(unchanged)
        # "Nothing written": for exit 2 the --out file or folder is left as it was (a folder
        # not created); for exit 4 of `run` the previous complete file is left.
        if keep_out and "--out" in args[:-1] and all(s == 2 or (s == 4 and args[:1] == ["run"]) for s in statuses):
            out = args[args.index("--out") + 1]
            out = out if os.path.isabs(out) else self.p(out)
            if not out.startswith("/dev/"):
                watch.append(out)
        before = {p: snapshot(p) for p in watch}
        res = self.exec(args, stdout=stdout, fsize=fsize, uid=uid)
        self.judge(res, statuses, says, before, check)
        return res

    def judge(self, res: Result, statuses: tuple[int, ...], says: Iterable = (),
              before: dict | None = None, check: Callable[[Result], list[str]] | None = None,
              extra: list[str] | None = None) -> None:
        reasons: list[str] = list(extra or [])
        if res.hung:
            verdict = HUNG
            reasons.insert(0, f"still running after {self.r.timeout:g} s")
        elif crash_of(res):
            verdict = CRASHED
            reasons.insert(0, f"{crash_of(res)} (exit {res.rc})")
        else:
            if res.rc not in statuses:
                want = " or ".join(str(s) for s in statuses)
                reasons.append(f"expected exit {want}, got {res.rc}")
            if res.rc in (2, 3, 4):
                n = len(lines_of(res.stderr))
                if n != 1:
                    reasons.append(f"{n} lines on stderr, expected one")
            if res.rc == 2 and res.stdout:
                reasons.append(f"{len(res.stdout)} bytes written to standard output")
            if res.rc in statuses:
                message = res.stderr.replace(self.work, "<work>").replace(self.r.root, "<root>")
                for s in says:
                    problem = self.says_problem(message, s)
                    if problem:
                        reasons.append(problem)
                if check:
                    reasons.extend(check(res))
            for path, snap in (before or {}).items():
                change = snapshot_change(path, snap, snapshot(path))
                if change:
                    reasons.append(change)
            left = stale_temporaries(self.work)
            if left:
                reasons.append(f"temporary file left: {os.path.relpath(left[0], self.work)}")
            verdict = WRONG if reasons else HANDLED
        self.record(res, verdict, reasons)

    @staticmethod
    def says_problem(stderr: str, s) -> str | None:
        if callable(s):
            return s(stderr)
        alternatives = s if isinstance(s, tuple) else (s,)
        if any(re.search(a, stderr, re.I) for a in alternatives):
            return None
        return f"the message does not name {' / '.join(alternatives)}"

    def record(self, res: Result, verdict: str, reasons: list[str]) -> None:
        self.done += 1
        if self.done > self.calls:
            raise RuntimeError(f"probe {self.name} makes more invocations than its declared {self.calls}")
        rec = Record(self.name, self.category, res.args, verdict, reasons, res.stderr, res.seconds, self.work)
        with self.r.lock:
            self.r.records.append(rec)
        self.note(res, verdict, reasons)

    def note(self, res: Result, verdict: str | None, reasons: list[str]) -> None:
        if not self.r.verbose:
            return
        with self.r.print_lock:
            tag = verdict.upper() if verdict else "setup"
            print(f"[{tag:7}] {self.category}/{self.name}: {self.show(res.args)} -> "
                  f"{'hung' if res.hung else res.rc} ({res.seconds:.2f} s)")
            for line in lines_of(res.stderr)[:6]:
                print(f"          | {line[:300]}")
            for r in reasons:
                print(f"          ! {r}")
            sys.stdout.flush()

    def show(self, args: list[str]) -> str:
        return show_args(self.work, args)

    def fail_rest(self, verdict: str, reason: str) -> None:
        """The probe stopped early (its setup failed): its remaining invocations get `verdict`."""
        while self.done < self.calls:
            self.record(Result([f"<{self.name}: not run>"], None, b"", "", 0.0), verdict, [reason])


# ---------------------------------------------------------------------------------------------
# The probes

@dataclass
class Probe:
    name: str
    category: str
    calls: int
    fn: Callable[[Ctx], None]
    note: str = ""


PROBES: list[Probe] = []


def probe(name: str, category: str, calls: int = 1, note: str = ""):
    assert category in CATEGORIES, category
    def deco(fn):
        assert all((p.category, p.name) != (category, name) for p in PROBES), name
        PROBES.append(Probe(name, category, calls, fn, note))
        return fn
    return deco


SENTINEL = b"t,previous\n0,complete file\n"


def run_case(name: str, args: list[str], status: int, says=(), *, out: str | None = "out.csv",
             keep: bool | None = None, check=None, note: str = "", category: str = "run", **kw):
    """A one-invocation `run` probe. The --out file exists beforehand (`keep`) or not; for exit
    2 and 4 it must be left as it was."""
    def fn(ctx: Ctx):
        a = ["run", *args]
        keep_file = keep if keep is not None else (len(name) % 2 == 0)
        if out is not None:
            a += ["--out", ctx.p(out)]
            if keep_file:
                ctx.write(out, SENTINEL)
        ctx.check(a, status, says, check=(lambda res: check(ctx, res)) if check else None, **kw)
    probe(name, category, 1, note)(fn)


PEND = ["--model", "spherical_pendulum"]
RK4 = [*PEND, "--integrator", "rk4", "--h", "0.01", "--T", "1"]
DOPRI = [*PEND, "--integrator", "dopri45", "--T", "1"]


def rk4(**over: str) -> list[str]:
    """rk4 on the spherical pendulum (h = 0.01, T = 1) with some options replaced."""
    opts = {"--model": "spherical_pendulum", "--integrator": "rk4", "--h": "0.01", "--T": "1"}
    opts.update({f"--{k}": v for k, v in over.items()})
    return [x for k, v in opts.items() if v is not None for x in (k, v)]


def complete(rows=None, last_t=None):
    return lambda ctx, res: csv_problems(ctx.p("out.csv"), rows=rows, last_t=last_t)


def kept_until_failure(T: float):
    return lambda ctx, res: csv_problems(ctx.p("out.csv"), before_t=T)


def failure_says(kind: str):
    return [kind, (r"\bt\s*=\s*[-+]?\d", r"\btime\b"), r"\bstep\b\D{0,12}\d+"]


# --- run: numbers and their domains ---------------------------------------------------------

T_ = (r"--T\b", r"\bT\b")
H_ = (r"--h\b", r"\bh\b")
RTOL_ = (r"--rtol\b", r"\brtol\b")
ATOL_ = (r"--atol\b", r"\batol\b")

# The examples, verbatim (no --out: the series would go to standard output).
run_case("issue-h-1e-300", ["--model", "spherical_pendulum", "--integrator", "rk4", "--h", "1e-300",
                            "--T", "1"], 2, [r"steps?", names_number(1e300)], out=None)
for label, value in [("inf", "inf"), ("nan", "nan"), ("-1", "-1"), ("0", "0"), ("-inf", "-inf"),
                     ("1e400", "1e400"), ("abc", "abc"), ("empty", "")]:
    run_case(f"T-{label}", rk4(T=value), 2, [T_])
run_case("T-1e300", rk4(T="1e300"), 2, [r"steps?", names_number(1e302)])
run_case("T-1e300-adaptive", [*PEND, "--integrator", "dopri45_proj", "--T", "1e300", "--max-steps", "1000"], 3,
         failure_says("TooMuchWork"), check=kept_until_failure(1e300))
for label, value in [("nan", "nan"), ("inf", "inf"), ("-inf", "-inf"), ("0", "0"), ("-0.01", "-0.01"),
                     ("1e400", "1e400")]:
    run_case(f"h-{label}", rk4(h=value), 2, [H_])
run_case("h-1e-320", rk4(h="1e-320"), 2, [(r"steps?", r"--h\b", r"\bh\b")])
run_case("h-1e-300-T-1-out", rk4(h="1e-300"), 2, [r"steps?", names_number(1e300)], keep=True)
run_case("T-1e9-h-1e-3-big", rk4(T="1e9", h="1e-3"), 2, [r"steps?", names_number(1e12)], out="big.csv",
         keep=False)
run_case("T-1e9-h-1e-3-big-kept", rk4(T="1e9", h="1e-3"), 2, [r"steps?", names_number(1e12)],
         out="big.csv", keep=True)
run_case("T-2e6-rkmk4", ["--model", "free_rigid_body", "--integrator", "rkmk4", "--h", "0.01", "--T", "2e6"],
         2, [r"steps?", names_number(2e8)])
run_case("lie-euler-h-1e-300", ["--model", "free_rigid_body", "--integrator", "lie_euler", "--h", "1e-300"],
         2, [r"steps?", names_number(1e300)])
# The constrained integrators' dense Newton matrix on lee2009's 642 molecules: 2568 unknowns,
# over the 1024 they allow (integrators/constrained_variational.hpp).
run_case("constrained-dense-642-molecules", ["--model", "sphere_lj", "--preset", "lee2009", "--integrator",
                                             "rattle", "--h", "0.01", "--T", "1"], 2,
         [r"\b1024\b", r"constraints"])
# 10^7 steps (under the cap of 10^8), but 10^7 rows of 19 numbers: over 1 GiB of output.
run_case("output-over-1GiB", ["--model", "double_spherical_pendulum", "--integrator", "rk4", "--h", "1e-10",
                              "--T", "1e-3"], 2, [r"output|bytes|GiB|rows"])
run_case("max-output-1000", [*RK4, "--max-output", "1000"], 2,
         [r"output|bytes|rows", lambda m: None if [v for v in numbers_in(m) if v not in (1000.0,)]
          else "the message shows no estimate"])
run_case("max-output-1000-kept", [*RK4, "--max-output", "1000"], 2, [r"output|bytes|rows"], keep=True)
run_case("max-output-1M-ok", [*RK4, "--max-output", "1M"], 0, check=complete(rows=101, last_t=1.0))
for label, value in [("nan", "nan"), ("0", "0"), ("-1", "-1"), ("abc", "abc"), ("1Q", "1Q"), ("inf", "inf")]:
    run_case(f"max-output-{label}", [*RK4, "--max-output", value], 2, [r"max-output|max_output", NOT_UNKNOWN])
run_case("every-7-ok", [*RK4, "--every", "7"], 0, check=complete(rows=16, last_t=1.0))
run_case("every-huge-ok", [*RK4, "--every", "9223372036854775807"], 0, check=complete(rows=2, last_t=1.0))
for label, value in [("0", "0"), ("-1", "-1"), ("nan", "nan"), ("inf", "inf"), ("1.5", "1.5"),
                     ("abc", "abc"), ("1e300", "1e300"), ("2^63", "9223372036854775808"), ("empty", "")]:
    run_case(f"every-{label}", [*RK4, "--every", value], 2, [r"every", NOT_UNKNOWN])
run_case("output-times-ok", [*RK4, "--output-times", "0:0.25:1"], 0, check=complete(rows=5, last_t=1.0))
for label, value in [("zero-step", "0:0:1"), ("two-parts", "0:0.5"), ("backwards", "1:0.5:0"),
                     ("decreasing", "0,0.5,0.2"), ("after-T", "0,2"), ("negative", "-1"), ("nan", "nan"),
                     ("inf", "0:0.1:inf"), ("empty", ""), ("empty-item", "0,,1"), ("words", "a,b"),
                     ("2^53-times", "0:1e-300:1"), ("four-parts", "0:1:1:1")]:
    run_case(f"output-times-{label}", [*RK4, "--output-times", value], 2, [r"output-times", NOT_UNKNOWN])
run_case("output-times-over-cap", [*RK4, "--output-times", "0:1e-12:1"], 2, [r"output|bytes|rows"])
run_case("output-times-and-every", [*RK4, "--output-times", "0,1", "--every", "3"], 2, [r"not both"])
run_case("stats-only-and-every", [*RK4, "--stats-only", "--every", "3"], 2, [r"stats-only"])
run_case("max-steps-99", [*RK4, "--max-steps", "99"], 2, [r"steps?", names_number(100)])
run_case("max-steps-100-ok", [*RK4, "--max-steps", "100"], 0, check=complete(rows=101, last_t=1.0))
for label, value in [("0", "0"), ("-1", "-1"), ("nan", "nan"), ("inf", "inf"), ("1.5", "1.5"),
                     ("abc", "abc"), ("1e300", "1e300")]:
    run_case(f"max-steps-{label}", [*RK4, "--max-steps", value], 2, [r"max-steps|max_steps", NOT_UNKNOWN])

# --- run: adaptive caps and integration failures (exit 3, the series kept) -------------------
run_case("dopri45-too-much-work", [*PEND, "--integrator", "dopri45_proj", "--T", "1e6", "--max-steps", "1000"], 3,
         failure_says("TooMuchWork"), check=kept_until_failure(1e6))
run_case("cvode-too-much-work", [*PEND, "--integrator", "cvode_bdf", "--T", "1e6", "--max-steps", "500"], 3,
         failure_says("TooMuchWork"), check=kept_until_failure(1e6))
run_case("rkmk54-too-much-work", ["--model", "free_rigid_body", "--integrator", "rkmk54", "--rtol", "1e-8",
                                  "--T", "1e6", "--max-steps", "300"], 3,
         failure_says("TooMuchWork"), check=kept_until_failure(1e6))
run_case("vi-explicit-nonconvergence", [*PEND, "--integrator", "vi_explicit", "--h", "2", "--T", "10"], 3,
         failure_says("NonConvergence"), check=kept_until_failure(10))
run_case("vi-implicit-nonconvergence", [*PEND, "--integrator", "vi_implicit", "--h", "3", "--T", "30"], 3,
         failure_says("NonConvergence"), check=kept_until_failure(30))
run_case("rk4-left-manifold", [*PEND, "--integrator", "rk4", "--h", "1", "--T", "1000"], 3,
         failure_says("LeftManifold"), check=kept_until_failure(1000))

# --- run: tolerances --------------------------------------------------------------------------
for label, value in [("nan", "nan"), ("inf", "inf"), ("0", "0"), ("-1e-6", "-1e-6"), ("2", "2"),
                     ("1e-15", "1e-15"), ("2.2e-14", "2.2e-14"), ("1e-300", "1e-300")]:
    run_case(f"rtol-{label}", [*DOPRI, "--rtol", value], 2, [RTOL_])
for label, value in [("nan", "nan"), ("inf", "inf"), ("0", "0"), ("-1", "-1")]:
    run_case(f"atol-{label}", [*DOPRI, "--atol", value], 2, [ATOL_])
run_case("odeint-rtol-1e-300", [*PEND, "--integrator", "odeint_dopri5", "--rtol", "1e-300"], 2,
         [RTOL_, (r"2\.2e-14", r"100 (machine )?eps")])
run_case("cvode-rtol-0", [*PEND, "--integrator", "cvode_bdf", "--rtol", "0"], 2, [RTOL_])
run_case("arkode-atol-neg", [*PEND, "--integrator", "arkode_erk", "--atol", "-1"], 2, [ATOL_])
run_case("rkmk54-rtol-nan", ["--model", "free_rigid_body", "--integrator", "rkmk54", "--rtol", "nan"], 2,
         [RTOL_])
run_case("rtol-1-ok", [*DOPRI, "--rtol", "1"], 0, check=complete(last_t=1.0))
run_case("rtol-3e-14-ok", [*PEND, "--integrator", "dopri45", "--T", "0.05", "--rtol", "3e-14"], 0,
         check=complete(last_t=0.05))
run_case("atol-1e-300-ok", [*DOPRI, "--atol", "1e-300"], 0, check=complete(last_t=1.0))
run_case("dopri45-defaults-ok", DOPRI, 0, check=complete(last_t=1.0))

# --- run: settings the method does not use -----------------------------------------------------
run_case("rk4-with-rtol", [*RK4, "--rtol", "1e-6"], 2, [RTOL_])
run_case("rk4-with-atol", [*RK4, "--atol", "1e-9"], 2, [ATOL_])
run_case("lie-euler-with-rtol", [*PEND, "--integrator", "lie_euler", "--h", "0.01", "--rtol", "1e-6"], 2,
         [RTOL_])
run_case("vi-implicit-with-atol", [*PEND, "--integrator", "vi_implicit", "--h", "0.01", "--atol", "1"], 2,
         [ATOL_])
run_case("dopri45-with-h", [*DOPRI, "--h", "0.01"], 2, [H_])
run_case("cvode-with-h", [*PEND, "--integrator", "cvode_bdf", "--h", "0.01"], 2, [H_])
run_case("rkmk54-with-h", ["--model", "free_rigid_body", "--integrator", "rkmk54", "--h", "0.1"], 2, [H_])
run_case("rk4-without-h", [*PEND, "--integrator", "rk4"], 2, [H_])

# --- run: parameters and initial states ---------------------------------------------------------
for label, value, names in [
        ("g-nan", "g=nan", r"\bg\b"), ("g-inf", "g=inf", r"\bg\b"), ("g--inf", "g=-inf", r"\bg\b"),
        ("m-0", "m=0", r"\bm\b"), ("m--1", "m=-1", r"\bm\b"), ("l-nan", "l=nan", r"\bl\b"),
        ("g-empty", "g=", r"\bg\b"), ("no-name", "=3", r"--param"), ("g-1e400", "g=1e400", r"\bg\b"),
        ("g-abc", "g=abc", r"\bg\b"), ("no-equals", "g", r"--param"), ("unknown", "mass=2", r"mass")]:
    run_case(f"param-{label}", [*RK4, "--param", value], 2, [names])
for label, value, names in [("I1-0", "I1=0", r"I1"), ("I2-nan", "I2=nan", r"I2"), ("L--1", "L=-1", r"\bL\b")]:
    run_case(f"rigid-param-{label}", ["--model", "free_rigid_body", "--integrator", "rkmk4", "--h", "0.01",
                                      "--param", value], 2, [names])
for label, value in [("0", "N=0"), ("2.5", "N=2.5"), ("1e9", "N=1e9"), ("nan", "N=nan")]:
    run_case(f"chain-N-{label}", ["--model", "pendulum_chain", "--integrator", "rk4", "--h", "0.01", "--T", "0.1",
                                  "--param", value], 2, [r"\bN\b"])
run_case("chain-N-3-on-N2-preset", ["--model", "pendulum_chain", "--preset", "celledoni2021_N2", "--integrator",
                                    "rk4", "--h", "0.01", "--T", "0.1", "--param", "N=3"], (0, 2),
         note="either refused (the preset's state has 2 bodies) or run with a consistent state")
for label, value, extra, names in [
        ("q1-nan", "q1=nan,0,1", [], r"q1"), ("q1-0-project", "q1=0,0,0", ["--project"], r"q1"),
        ("q1-inf-project", "q1=inf,0,0", ["--project"], r"q1"), ("q1-short", "q1=0,0", [], r"q1"),
        ("q1-long", "q1=0,0,1,0", [], r"q1"), ("q1-empty", "q1=", [], r"q1"), ("q1-hole", "q1=0,,1", [], r"q1"),
        ("q1-off", "q1=1,0,1", [], r"--project|manifold"), ("w1-nan", "w1=nan,0,0", [], r"w1"),
        ("w1-off-tangent", "w1=1,0,0", [], r"--project|manifold|tangen"), ("q7", "q7=0,0,1", [], r"q7")]:
    run_case(f"ic-{label}", [*RK4, "--ic", value, *extra], 2, [names])
for label, value, extra in [("nan", "Pi=nan,0,3", []), ("short", "Pi=1,0", []),
                            ("zero-project", "Pi=0,0,0", ["--project"])]:
    run_case(f"rigid-ic-{label}", ["--model", "free_rigid_body", "--integrator", "lie_euler", "--h", "0.01",
                                   "--ic", value, *extra], 2, [r"Pi"])
run_case("ic-project-ok", [*RK4, "--ic", "q1=1,0,1", "--project"], 0, check=complete(rows=101, last_t=1.0))

# --- run: names -------------------------------------------------------------------------------
run_case("integrator-bogus-keep", [*PEND, "--integrator", "bogus", "--h", "0.01"], 2, [r"bogus"],
         out="keep.csv", keep=True)
run_case("integrator-bogus", [*PEND, "--integrator", "bogus", "--h", "0.01"], 2, [r"bogus"], keep=False)
run_case("model-bogus", ["--model", "bogus", "--integrator", "rk4", "--h", "0.01"], 2, [r"bogus"])
run_case("model-empty", ["--model", "", "--integrator", "rk4", "--h", "0.01"], 2, [r"model"])
run_case("preset-bogus", [*RK4, "--preset", "bogus"], 2, [r"bogus"])
run_case("n/a-vi-explicit-keep", ["--model", "double_spherical_pendulum", "--integrator", "vi_explicit",
                                  "--h", "0.01"], 2, [r"n/a|SphereLagrangian"], out="keep.csv", keep=True)
run_case("n/a-rigid-vi-implicit-keep", ["--model", "free_rigid_body", "--integrator", "vi_implicit",
                                        "--h", "0.01"], 2, [r"n/a|SphereLagrangian"], out="keep.csv", keep=True)

# --- run: valid controls (a probe that refuses everything must not pass) -----------------------
run_case("rk4-ok", RK4, 0, check=complete(rows=101, last_t=1.0), keep=True)
run_case("rigid-lie-euler-ok", ["--model", "free_rigid_body", "--integrator", "lie_euler", "--h", "0.01"], 0,
         check=complete(rows=101, last_t=1.0))


@probe("stdout-ok", "run")
def _(ctx: Ctx):
    ctx.check(["run", *RK4, "--out", "-"], 0,
              check=lambda res: csv_problems(None, text=res.stdout.decode(), rows=101, last_t=1.0))


# --- io: failed writes ------------------------------------------------------------------------

@probe("run-out-dev-full", "io")
def _(ctx: Ctx):
    ctx.check(["run", *RK4, "--out", "/dev/full"], 4, [r"/dev/full"])


@probe("run-stdout-dev-full", "io")
def _(ctx: Ctx):
    ctx.check(["run", *RK4], 4, [r"standard output|stdout|write"], stdout="/dev/full")


@probe("run-out-is-directory", "io")
def _(ctx: Ctx):
    d = ctx.p("adir")
    os.makedirs(d)
    ctx.write("adir/inside.txt", "x")
    ctx.check(["run", *RK4, "--out", d], 4, [r"adir"])


@probe("run-out-parent-is-file", "io")
def _(ctx: Ctx):
    ctx.write("afile", "x")
    ctx.check(["run", *RK4, "--out", ctx.p("afile", "x.csv")], 4, [r"afile"], unchanged=[ctx.p("afile")])


@probe("run-out-parent-missing", "io", note="0 (the folder made) or 4 are both accepted")
def _(ctx: Ctx):
    path = ctx.p("no", "such", "x.csv")
    ctx.check(["run", *RK4, "--out", path], (0, 4),
              check=lambda res: csv_problems(path, rows=101) if res.rc == 0 else
              ([f"{path} left behind"] if os.path.exists(path) else []))


@probe("run-disk-full-keeps-previous", "io")
def _(ctx: Ctx):
    ctx.write("keep.csv", SENTINEL)
    ctx.check(["run", *rk4(T="10"), "--out", ctx.p("keep.csv")], 4, [r"keep\.csv"], fsize=16 << 10)


@probe("run-disk-full-new-file", "io")
def _(ctx: Ctx):
    ctx.check(["run", *rk4(T="10"), "--out", ctx.p("new.csv")], 4, [r"new\.csv"], fsize=16 << 10)


@probe("run-disk-full-failure-output", "io",
       note="an integration failure whose kept series cannot be written: 4 (the I/O error wins)")
def _(ctx: Ctx):
    ctx.check(["run", *PEND, "--integrator", "vi_explicit", "--h", "2", "--T", "10", "--out", "/dev/full"], 4,
              [r"/dev/full"])


def unwritable_dir(ctx: Ctx) -> tuple[str, int | None]:
    """A folder the invocation cannot write: root-owned 0755 for user nobody when the probe
    runs as root, else mode 0555."""
    d = ctx.p("readonly")
    os.makedirs(d)
    if os.geteuid() == 0:
        os.chmod(d, 0o755)
        return d, 65534
    os.chmod(d, 0o555)
    return d, None


@probe("run-out-unwritable-dir", "io")
def _(ctx: Ctx):
    d, uid = unwritable_dir(ctx)
    ctx.check(["run", *RK4, "--out", os.path.join(d, "x.csv")], 4, [r"readonly"], uid=uid,
              unchanged=[d])


# --- cli: the argument parser -----------------------------------------------------------------

def cli_case(name: str, args: list[str], says, category: str = "cli"):
    probe(name, category)(lambda ctx: ctx.check(args, 2, [says]))


cli_case("no-subcommand", [], r"subcommand")
cli_case("unknown-subcommand", ["bogus"], r"bogus")
cli_case("unknown-global-option", ["--bogus"], r"--bogus")
cli_case("run-unknown-option", ["run", *RK4, "--bogus", "1"], r"--bogus")
cli_case("run-missing-value", ["run", "--model"], r"--model")
cli_case("run-missing-value-at-end", ["run", *PEND, "--integrator", "rk4", "--h", "0.01", "--T"], r"--T")
cli_case("run-h-not-a-number", ["run", *PEND, "--integrator", "rk4", "--h", "abc"], r"--h")
cli_case("run-h-empty", ["run", *PEND, "--integrator", "rk4", "--h", ""], H_)
cli_case("run-missing-model", ["run", "--integrator", "rk4", "--h", "0.01"], r"--model")
cli_case("run-extra-positional", ["run", *RK4, "extra"], r"extra")
cli_case("study-missing-spec", ["study", "--out", "x"], r"spec")
cli_case("study-missing-out", ["study", "spec.yaml"], r"--out")
cli_case("study-out-missing-value", ["study", "spec.yaml", "--out"], r"--out")
cli_case("study-jobs-abc", ["study", "spec.yaml", "--out", "x", "--jobs", "abc"], r"--jobs")
cli_case("study-jobs-negative", ["study", "spec.yaml", "--out", "x", "--jobs", "-1"], r"--jobs")
cli_case("report-missing-results", ["report", "--out", "x"], r"results|argument")
cli_case("report-missing-out", ["report", "somewhere"], r"--out")
cli_case("matrix-missing-out", ["matrix"], r"--out")
cli_case("list-bogus", ["list", "bogus"], r"bogus", category="matrix")


@probe("list-models-ok", "matrix")
def _(ctx: Ctx):
    ctx.check(["list", "models"], 0, check=lambda res: [] if b"spherical_pendulum" in res.stdout
              else ["no spherical_pendulum in the list"])


@probe("list-integrators-ok", "matrix")
def _(ctx: Ctx):
    ctx.check(["list", "integrators"], 0, check=lambda res: [] if b"rkmk4" in res.stdout
              else ["no rkmk4 in the list"])


# --- study: specs -----------------------------------------------------------------------------

TINY = """\
name: tiny
experiments:
  - name: pend
    model: spherical_pendulum
    preset: swing
    T: 0.2
    reference: {integrator: cvode_bdf, rtol: 1e-10, atol: 1e-12}
    runs:
      - integrators: [rk4]
        h: [0.02, 0.01]
      - integrators: [dopri45]
        rtol: [1e-6]
"""


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth occurrence of needle."""
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1


def spec_case(name: str, text: str | bytes, line: int | None, says=(), *, status: int = 2,
              file_line: bool = True, extra_args: tuple[str, ...] = (), check=None, note: str = "",
              category: str = "study"):
    """A one-invocation `study` probe on a spec: refused with file:line:column, the --out
    folder not created."""
    def fn(ctx: Ctx):
        spec = ctx.write("spec.yaml", text)
        out = ctx.p("out")
        checks = list(says)
        if status == 2 and file_line:
            checks.insert(0, line_col(spec, line))
        ctx.check(["study", spec, "--out", out, "--quiet", "--jobs", "1", *extra_args], status, checks,
                  check=(lambda res: check(ctx, res)) if check else None)
    probe(name, category, 1, note)(fn)


def mutate(old: str, new: str, text: str = TINY) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


EXP = "    preset: swing\n"


def exp_key(line: str) -> tuple[str, int]:
    """TINY with `line` added to the experiment after its preset, and that line's number."""
    text = mutate(EXP, EXP + "    " + line + "\n")
    return text, line_of(text, line)


spec_case("tiny-ok", TINY, None, status=0,
          check=lambda ctx, res: study_problems(ctx.p("out"), cases=3))
# The type errors, verbatim.
text, n = exp_key("project_initial: maybe")
spec_case("project-initial-maybe", text, n, [r"project_initial"])
text = mutate("    runs:\n      - integrators: [rk4]\n        h: [0.02, 0.01]\n"
              "      - integrators: [dopri45]\n        rtol: [1e-6]\n", "    runs: [rk4]\n")
spec_case("runs-list-of-names", text, line_of(text, "runs: [rk4]"), [r"runs"])
spec_case("experiments-42", "name: tiny\nexperiments: [42]\n", 2, [r"experiments"])
text = mutate("reference: {integrator: cvode_bdf, rtol: 1e-10, atol: 1e-12}", "reference: {integrator: [dopri45]}")
spec_case("reference-integrator-list", text, line_of(text, "reference:"), [r"integrator|reference"])
text, n = exp_key("parameters: {[g]: 1}")
spec_case("parameters-list-key", text, n, [r"parameters"])
for label, value, names in [("g-nan", "{g: .nan}", r"\bg\b"), ("g-inf", "{g: .inf}", r"\bg\b"),
                            ("m-neg", "{m: -1}", r"\bm\b"), ("l-zero", "{l: 0}", r"\bl\b"),
                            ("g-1e400", "{g: 1e400}", r"\bg\b"), ("g-text", "{g: abc}", r"\bg\b"),
                            ("unknown", "{mass: 2}", r"mass"), ("list", "[g, 1]", r"parameters")]:
    text, n = exp_key(f"parameters: {value}")
    spec_case(f"parameters-{label}", text, n, [names])
for label, value in [("nan", ".nan"), ("inf", ".inf"), ("-inf", "-.inf"), ("neg", "-1"), ("zero", "0"),
                     ("text", "abc"), ("list", "[1]"), ("null", "~")]:
    text = mutate("    T: 0.2\n", f"    T: {value}\n")
    spec_case(f"T-{label}", text, line_of(text, f"T: {value}"), [r"\bT\b"])
text = mutate("    T: 0.2\n", "    T: 1e300\n")
spec_case("T-1e300", text, None, [r"steps?", names_number(5e301, 1e302)], file_line=False)
text = mutate("    T: 0.2\n", "    T: 2e6\n")
spec_case("T-2e6-over-step-cap", text, None, [r"steps?", names_number(2e8)], file_line=False)
for label, value in [("nan", "[.nan]"), ("zero", "[0]"), ("neg", "[-0.01]"), ("inf", "[.inf]"),
                     ("empty", "[]"), ("text", "abc"), ("mixed", "[0.01, abc]"), ("map", "{a: 1}")]:
    text = mutate("h: [0.02, 0.01]", f"h: {value}")
    spec_case(f"h-{label}", text, line_of(text, f"h: {value}"), [r"\bh\b"])
text = mutate("h: [0.02, 0.01]", "h: [1e-300]")
spec_case("h-1e-300", text, None, [r"steps?", names_number(2e299)], file_line=False)
for label, value in [("nan", "[.nan]"), ("zero", "[0]"), ("1e-300", "[1e-300]"), ("two", "[2]"),
                     ("neg", "[-1e-6]"), ("1e-15", "[1e-15]"), ("text", "[abc]")]:
    text = mutate("rtol: [1e-6]", f"rtol: {value}")
    spec_case(f"rtol-{label}", text, line_of(text, f"rtol: {value}"), [r"rtol"])
for label, value in [("zero", "0"), ("nan", ".nan"), ("neg", "-1"), ("inf", ".inf"),
                     ("length", "[1e-9, 1e-10]")]:
    text = mutate("        rtol: [1e-6]\n", f"        rtol: [1e-6]\n        atol: {value}\n")
    spec_case(f"atol-{label}", text, (line_of(text, f"atol: {value}"), line_of(text, "rtol: [1e-6]"),
                                      line_of(text, "- integrators: [dopri45]")), [r"atol"])
text = mutate("        h: [0.02, 0.01]\n", "        h: [0.02, 0.01]\n        rtol: 1e-6\n")
spec_case("rk4-with-rtol", text, (line_of(text, "rtol: 1e-6"), line_of(text, "- integrators: [rk4]")), [r"rtol"])
text = mutate("        rtol: [1e-6]\n", "        rtol: [1e-6]\n        h: 0.01\n")
spec_case("dopri45-with-h", text, (line_of(text, "h: 0.01"), line_of(text, "- integrators: [dopri45]")), [r"\bh\b"])
text = mutate("integrators: [rk4]", "integrators: []")
spec_case("integrators-empty-with-reference", text, line_of(text, "integrators: []"), [r"integrators"])
text = mutate("integrators: [rk4]", "integrators: [bogus]")
spec_case("integrators-bogus", text, line_of(text, "bogus"), [r"bogus"])
text = TINY.split("    runs:\n")[0] + "    runs: []\n"
spec_case("runs-empty", text, line_of(text, "runs: []"), [r"runs"])
spec_case("experiments-empty", "name: tiny\nexperiments: []\n", 2, [r"experiments"])
spec_case("duplicate-top-key", mutate("name: tiny\n", "name: tiny\nname: again\n"), 2, [r"duplicate|twice|again|name"])
text = mutate("    T: 0.2\n", "    T: 0.2\n    T: 0.3\n")
spec_case("duplicate-experiment-key", text, line_of(text, "T: 0.3"), [r"duplicate|twice|\bT\b"])
text = mutate("{integrator: cvode_bdf, rtol: 1e-10, atol: 1e-12}", "{integrator: cvode_bdf, rtol: 1e-10, rtol: 1e-11}")
spec_case("duplicate-flow-key", text, line_of(text, "reference:"), [r"duplicate|twice|rtol"])
text = mutate("name: tiny\n", "name: tiny\ntitle: \"never closed\n")
spec_case("unterminated-quote", text, 2, [r"quot"])
text = mutate("h: [0.02, 0.01]", "h: [0.02, 0.01")
spec_case("unterminated-flow-list", text, None, [r"\]|flow|sequence|list|bracket"])
spec_case("tab-indentation", mutate("    model: spherical_pendulum", "\tmodel: spherical_pendulum"), None)
spec_case("non-utf8-name", mutate("name: tiny", "name: tin\xffy").encode("latin-1"), 1, [r"UTF-8|utf8|encoding"])
spec_case("non-utf8-comment", mutate("    T: 0.2\n", "    T: 0.2  # \xe9t\xe9\n").encode("latin-1"), 6,
          [r"UTF-8|utf8|encoding"])
spec_case("overlong-utf8", b"name: tiny\ntitle: x\xc0\xaf\n" + TINY.split("name: tiny\n", 1)[1].encode(), 2,
          [r"UTF-8|utf8|encoding"])
spec_case("nul-byte", mutate("name: tiny", "name: ti\0ny").encode(), 1)
spec_case("deep-flow-nesting", mutate("name: tiny\n", "name: tiny\ndescription: " + "[" * 100000 + "]" * 100000
                                      + "\n"), 2, [r"deep|nest|depth"])
spec_case("deep-block-nesting", mutate("name: tiny\n", "name: tiny\ndescription:\n  " + "- " * 3000 + "x\n"),
          None, [r"deep|nest|depth|description"], note="3000 block lists in 6 kB (3000 nested maps, one "
          "indented further per level, would take 4.5 MB, over the size cap)")
spec_case("million-step-sizes", mutate("h: [0.02, 0.01]", "h: [" + "0.01, " * 1000000 + "0.01]"), None,
          file_line=False, note="too large: refused by a size cap or by the output estimate")
spec_case("huge-comment-64MiB", TINY + ("# " + "x" * 1022 + "\n") * (64 * 1024), None, [r"large|size|big|MiB|bytes"],
          file_line=False, note="a 64 MiB spec is refused as too large (the cap is the lead's choice)")
laughs = "l0: &l0 [lol, lol]\n" + "".join(
    f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 10))
spec_case("billion-laughs", TINY + laughs, None, [r"l0|unknown|key"],
          note="aliases expanding to 9^9 nodes: refused (unknown key), never expanded")
text, n = exp_key("horizon: 3")
spec_case("unknown-key", text, n, [r"horizon"])
text = mutate("  - name: pend\n", "  - name: pend\n", TINY) + TINY.split("experiments:\n")[1]
spec_case("duplicate-experiment-name", text, line_of(text, "- name: pend", 2), [r"pend"])
for label, value in [("text", "[abc]"), ("nan", "[.nan]"), ("neg", "[-1]")]:
    text, n = exp_key(f"snapshots: {value}")
    spec_case(f"snapshots-{label}", text, n, [r"snapshots"])
text, n = exp_key("series: maybe")
spec_case("series-maybe", text, n, [r"series"])
text, n = exp_key("plots: 5")
spec_case("plots-integer", text, n, [r"plots"])
for label, value, names in [("short", "{q1: [0, 0]}", r"q1"), ("nan", "{q1: [.nan, 0, 1]}", r"q1"),
                            ("unknown", "{q7: [0, 0, 1]}", r"q7"), ("off", "{q1: [1, 0, 1]}", r"project|manifold")]:
    text, n = exp_key(f"initial: {value}")
    spec_case(f"initial-{label}", text, (n, line_of(text, "- name: pend")), [names])
text = mutate(EXP, EXP + "    project_initial: true\n    initial: {q1: [0, 0, 0]}\n")
spec_case("initial-zero-projected", text, (line_of(text, "    initial:"), line_of(text, "project_initial"),
                                          line_of(text, "- name: pend")), [r"q1"])
for label, value in [("rtol-1e-300", "{integrator: cvode_bdf, rtol: 1e-300}"),
                     ("rtol-nan", "{integrator: cvode_bdf, rtol: .nan}"),
                     ("atol-zero", "{integrator: cvode_bdf, atol: 0}"),
                     ("fixed-step", "{integrator: rk4}"), ("bogus", "{integrator: bogus}"),
                     ("scalar", "maybe")]:
    text = mutate("{integrator: cvode_bdf, rtol: 1e-10, atol: 1e-12}", value)
    spec_case(f"reference-{label}", text, line_of(text, "reference:"), [r"reference|rtol|atol|integrator|bogus"])
text = mutate("name: tiny\n", "name: tiny\nmax_steps: 10\n")
spec_case("max-steps-10", text, None, [r"steps?", names_number(20), NOT_UNKNOWN], file_line=False)
for label, value in [("nan", ".nan"), ("neg", "-1"), ("half", "1.5"), ("text", "abc")]:
    text = mutate("name: tiny\n", f"name: tiny\nmax_steps: {value}\n")
    spec_case(f"max-steps-{label}", text, 2, [r"max_steps", NOT_UNKNOWN])
text = mutate("name: tiny\n", "name: tiny\nmax_output: 100\n")
spec_case("max-output-100", text, None, [r"output|bytes|rows", NOT_UNKNOWN,
                                         lambda m: None if [v for v in numbers_in(m) if v > 100]
                                         else "the message shows no estimate above the cap"], file_line=False,
          note="the spec's max_output in bytes: 100 bytes cannot hold the study's files")
for label, value in [("neg", "-1"), ("text", "abc")]:
    text = mutate("name: tiny\n", f"name: tiny\nmax_output: {value}\n")
    spec_case(f"max-output-{label}", text, 2, [r"max_output", NOT_UNKNOWN])
text = mutate("name: tiny\n", "name: tiny\nmax_steps: 1000\n").replace("    T: 0.2\n", "    T: 1e6\n").replace(
    "      - integrators: [rk4]\n        h: [0.02, 0.01]\n", "").replace(
    "    reference: {integrator: cvode_bdf, rtol: 1e-10, atol: 1e-12}\n", "")


def too_much_work_recorded(ctx: Ctx, res: Result) -> list[str]:
    t = cases_table(ctx.p("out", "cases.csv"))
    if not t:
        return ["cases.csv missing"]
    header, rows = t
    status = [r[header.index("status")] for r in rows] if "status" in header else []
    return [] if status == ["TooMuchWork"] else [f"case status {status}, expected ['TooMuchWork']"]


spec_case("adaptive-reaches-max-steps", text, None, status=0, check=too_much_work_recorded,
          note="a study records a case's failure as its status and exits 0")
spec_case("study-cli-max-steps", TINY, None, [r"steps?", names_number(20), NOT_UNKNOWN], file_line=False,
          extra_args=("--max-steps", "10"), note="study takes --max-steps like run")
METHOD = """\
methods:
  - name: heun_user
    kind: runge_kutta
    order: 2
    a: [[0, 0], [1, 0]]
    b: [1/2, 1/2]
"""
for label, old, new, names in [("a-nan", "[[0, 0], [1, 0]]", "[[0, 0], [.nan, 0]]", r"\ba\b|heun_user"),
                               ("b-div-zero", "[1/2, 1/2]", "[1/0, 1/2]", r"\bb\b|heun_user"),
                               ("order-9", "order: 2", "order: 9", r"order"),
                               ("builtin-name", "name: heun_user", "name: rk4", r"rk4"),
                               ("kind-bogus", "runge_kutta", "bogus", r"bogus")]:
    method = METHOD.replace(old, new)
    text = method + (TINY if label == "builtin-name" else mutate("integrators: [rk4]", "integrators: [heun_user]"))
    spec_case(f"method-{label}", text, (line_of(text, new), line_of(text, "  - name:")), [names],
              note="the line of the offending value, or of the method's entry")
text = mutate("        rtol: [1e-6]\n", "        rtol: [1e-6]\n      - integrators: [rk4]\n"
              "        same_steps_as: {integrator: bogus, rtol: 1e-6}\n")
spec_case("same-steps-as-bogus", text, (line_of(text, "same_steps_as"), line_of(text, "same_steps_as") - 1),
          [r"bogus|same_steps_as"])


@probe("spec-missing", "study")
def _(ctx: Ctx):
    ctx.check(["study", ctx.p("nope.yaml"), "--out", ctx.p("out"), "--quiet"], 2, [r"nope\.yaml"])


@probe("spec-is-directory", "study")
def _(ctx: Ctx):
    os.makedirs(ctx.p("adir.yaml"))
    ctx.check(["study", ctx.p("adir.yaml"), "--out", ctx.p("out"), "--quiet"], 2, [r"adir\.yaml"])


for label, data in [("empty", b""), ("dev-null", None), ("random-bytes", bytes(random.Random(12).randrange(256)
                                                                                 for _ in range(4096))),
                    ("braces", b"{}\n"), ("list", b"[]\n"), ("null", b"null\n"), ("scalar", b"42\n"),
                    ("name-only", b"name: tiny\n")]:
    def fn(ctx: Ctx, data=data):
        spec = "/dev/null" if data is None else ctx.write("spec.yaml", data)
        ctx.check(["study", spec, "--out", ctx.p("out"), "--quiet"], 2, [re.escape(os.path.basename(spec))])
    probe(f"spec-{label}", "study")(fn)


# --- matrix -----------------------------------------------------------------------------------

def model_presets(ctx: Ctx) -> list[tuple[str, str]]:
    def make():
        res = ctx.setup(["list", "models"])
        models, current, in_presets = [], None, False
        for line in res.stdout.decode().splitlines():
            if line and not line[0].isspace():
                current, in_presets = line.strip(), False
            elif line.strip() == "presets:":
                in_presets = True
            elif in_presets and current and re.match(r"    \S+:", line):
                models.append((current, line.split(":")[0].strip()))
                current = None
        if not models:
            raise SetupError(WRONG, "`list models` shows no model with a preset")
        return models
    return ctx.r.once("models", make)


def tiny_matrix(ctx: Ctx, leave_out: int = 0, h: str = "0.01") -> str:
    models = model_presets(ctx)[leave_out:]
    text = "name: tinymatrix\nkind: matrix\nexperiments:\n" + "".join(
        f"  - name: m_{m}\n    model: {m}\n    preset: {p}\n    T: 0.01\n    runs:\n"
        f"      - integrators: [rk4]\n        h: [{h}]\n" for m, p in models)
    return ctx.write("matrix.yaml", text)


@probe("matrix-tiny-ok", "matrix")
def _(ctx: Ctx):
    spec = tiny_matrix(ctx)
    ctx.check(["matrix", "--spec", spec, "--out", ctx.p("out"), "--jobs", "2"], 0,
              check=lambda res: study_problems(ctx.p("out"), cases=len(model_presets(ctx))))


@probe("matrix-missing-model", "matrix")
def _(ctx: Ctx):
    spec = tiny_matrix(ctx, leave_out=1)
    ctx.check(["matrix", "--spec", spec, "--out", ctx.p("out")], 2, [re.escape(model_presets(ctx)[0][0])])


@probe("matrix-not-a-matrix", "matrix")
def _(ctx: Ctx):
    spec = ctx.write("spec.yaml", TINY)
    ctx.check(["matrix", "--spec", spec, "--out", ctx.p("out")], 2, [r"matrix"])


@probe("matrix-spec-missing", "matrix")
def _(ctx: Ctx):
    ctx.check(["matrix", "--spec", ctx.p("nope.yaml"), "--out", ctx.p("out")], 2, [r"nope\.yaml"])


@probe("matrix-h-1e-300", "matrix")
def _(ctx: Ctx):
    spec = tiny_matrix(ctx, h="1e-300")
    ctx.check(["matrix", "--spec", spec, "--out", ctx.p("out")], 2, [r"steps?", names_number(1e298)])


@probe("matrix-jobs-abc", "matrix")
def _(ctx: Ctx):
    ctx.check(["matrix", "--out", ctx.p("out"), "--jobs", "abc"], 2, [r"--jobs"])


@probe("matrix-out-dev-full", "io")
def _(ctx: Ctx):
    spec = tiny_matrix(ctx)
    ctx.check(["matrix", "--spec", spec, "--out", "/dev/full"], 4, [r"/dev/full"])


# --- io: study and report outputs that cannot be written --------------------------------------

@probe("study-out-dev-full", "io")
def _(ctx: Ctx):
    spec = ctx.write("spec.yaml", TINY)
    ctx.check(["study", spec, "--out", "/dev/full", "--quiet"], 4, [r"/dev/full"])


@probe("study-out-is-file", "io")
def _(ctx: Ctx):
    spec = ctx.write("spec.yaml", TINY)
    ctx.write("afile", "x")
    ctx.check(["study", spec, "--out", ctx.p("afile"), "--quiet"], 4, [r"afile"])


@probe("study-out-parent-is-file", "io")
def _(ctx: Ctx):
    spec = ctx.write("spec.yaml", TINY)
    ctx.write("afile", "x")
    ctx.check(["study", spec, "--out", ctx.p("afile", "res"), "--quiet"], 4, [r"afile"],
              unchanged=[ctx.p("afile")])


@probe("study-out-unwritable", "io")
def _(ctx: Ctx):
    spec = ctx.write("spec.yaml", TINY)
    d, uid = unwritable_dir(ctx)
    ctx.check(["study", spec, "--out", os.path.join(d, "res"), "--quiet"], 4, [r"readonly"], uid=uid,
              unchanged=[d])


@probe("study-disk-full-fresh", "io")
def _(ctx: Ctx):
    spec = ctx.write("spec.yaml", TINY)
    ctx.check(["study", spec, "--out", ctx.p("out"), "--quiet", "--jobs", "1"], 4, [r"out"], fsize=1024)


@probe("study-disk-full-keeps-previous", "io")
def _(ctx: Ctx):
    spec = ctx.write("spec.yaml", TINY)
    out = ctx.p("out")
    ctx.setup(["study", spec, "--out", out, "--quiet"])
    spec2 = ctx.write("spec2.yaml", mutate("h: [0.02, 0.01]", "h: [0.02, 0.01, 0.005]"))
    ctx.check(["study", spec2, "--out", out, "--quiet", "--jobs", "1"], 4, [r"out"], fsize=1024,
              unchanged=[os.path.join(out, n) for n in ("manifest.json", "cases.csv", "orders.csv")])


def good_results(ctx: Ctx) -> str:
    """A finished result folder of the resume spec (computed once), for report probes."""
    def make():
        d = os.path.join(ctx.r.root, "_shared", "good")
        os.makedirs(os.path.dirname(d), exist_ok=True)
        spec = os.path.join(ctx.r.root, "_shared", "resume.yaml")
        with open(spec, "w") as f:
            f.write(RESUME)
        ctx.setup(["study", spec, "--out", d, "--quiet", "--jobs", "2"])
        return d
    return ctx.r.once("good", make)


@probe("report-out-dev-full", "io")
def _(ctx: Ctx):
    ctx.check(["report", good_results(ctx), "--out", "/dev/full"], 4, [r"/dev/full"])


@probe("report-out-is-file", "io")
def _(ctx: Ctx):
    ctx.write("afile", "x")
    ctx.check(["report", good_results(ctx), "--out", ctx.p("afile")], 4, [r"afile"], unchanged=[ctx.p("afile")])


@probe("report-out-parent-is-file", "io")
def _(ctx: Ctx):
    ctx.write("afile", "x")
    ctx.check(["report", good_results(ctx), "--out", ctx.p("afile", "rep")], 4, [r"afile"],
              unchanged=[ctx.p("afile")])


@probe("report-out-unwritable", "io")
def _(ctx: Ctx):
    good = good_results(ctx)
    d, uid = unwritable_dir(ctx)
    ctx.check(["report", good, "--out", os.path.join(d, "rep")], 4, [r"readonly"], uid=uid, unchanged=[d])


@probe("report-disk-full", "io")
def _(ctx: Ctx):
    ctx.check(["report", good_results(ctx), "--out", ctx.p("rep")], 4, [r"rep|write|space|large"], fsize=4096)


# --- report: damaged result folders -----------------------------------------------------------

def report_case(name: str, damage: Callable[[Ctx, str], str | None], says=(), status: int = 2):
    """Copy the good folder, damage it, report it: exit 2, one line, no traceback."""
    def fn(ctx: Ctx):
        d = ctx.p("results")
        shutil.copytree(good_results(ctx), d)
        target = damage(ctx, d) or d
        rep = ctx.p("rep")
        ctx.check(["report", target, "--out", rep], status, says,
                  check=(lambda res: [] if os.path.isfile(os.path.join(rep, "index.html"))
                         else ["no index.html"]) if status == 0 else None)
    probe(name, "report")(fn)


def edit_manifest(change: Callable[[dict], object]):
    def damage(ctx: Ctx, d: str):
        path = os.path.join(d, "manifest.json")
        with open(path) as f:
            m = json.load(f)
        change(m)
        with open(path, "w") as f:
            json.dump(m, f)
    return damage


def put(rel: str, data: str | bytes | None):
    def damage(ctx: Ctx, d: str):
        path = os.path.join(d, rel)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
        if data is not None:
            with open(path, "wb") as f:
                f.write(data.encode() if isinstance(data, str) else data)
    return damage


def truncate(rel: str, keep: float = 0.5):
    def damage(ctx: Ctx, d: str):
        path = os.path.join(d, rel)
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[: int(len(data) * keep)])
    return damage


def edit_csv(rel: str, column: str, value: str, row: int = 0):
    def damage(ctx: Ctx, d: str):
        path = os.path.join(d, rel)
        header, rows = cases_table(path)
        rows[row][header.index(column)] = value
        with open(path, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows([header, *rows])
    return damage


def first_series(d: str) -> str:
    return "series/" + sorted(n for n in os.listdir(os.path.join(d, "series")) if not n.endswith("snapshots.csv"))[0]


report_case("report-ok", lambda ctx, d: None, status=0)
report_case("manifest-plots-integer", edit_manifest(lambda m: m["experiments"][0].__setitem__("plots", 5)),
            [r"plots"])
report_case("manifest-plots-list-of-integers", edit_manifest(lambda m: m["experiments"][0].__setitem__("plots", [5])),
            [r"plots"])
report_case("manifest-plots-string", edit_manifest(lambda m: m["experiments"][0].__setitem__("plots", "energy")),
            [r"plots"])
report_case("manifest-missing", put("manifest.json", None), [r"manifest"])
report_case("manifest-not-json", put("manifest.json", "this is not JSON\n"), [r"manifest"])
report_case("manifest-array", put("manifest.json", "[]\n"), [r"manifest"])
report_case("manifest-empty-object", put("manifest.json", "{}\n"), [r"manifest"])
report_case("manifest-truncated", truncate("manifest.json"), [r"manifest"])
report_case("manifest-non-utf8", put("manifest.json", b'{"study": "t\xffx", "experiments": []}'), [r"manifest"])
report_case("manifest-deeply-nested", put("manifest.json", "[" * 100000 + "]" * 100000), [r"manifest"])
report_case("manifest-is-directory", lambda ctx, d: (os.remove(os.path.join(d, "manifest.json")),
                                                     os.makedirs(os.path.join(d, "manifest.json")))[-1],
            [r"manifest"])
report_case("manifest-experiments-integer", edit_manifest(lambda m: m.__setitem__("experiments", 5)),
            [r"experiments|manifest"])
report_case("manifest-experiment-name-integer",
            edit_manifest(lambda m: m["experiments"][0].__setitem__("name", 5)), [r"name|manifest"])
report_case("manifest-study-integer", edit_manifest(lambda m: m.__setitem__("study", 5)), [r"study|manifest"])
report_case("cases-csv-missing", put("cases.csv", None), [r"cases\.csv"])
report_case("cases-csv-empty", put("cases.csv", ""), [r"cases\.csv"])
report_case("cases-csv-truncated", truncate("cases.csv", 0.7), [r"cases\.csv"])
report_case("cases-csv-steps-text", edit_csv("cases.csv", "steps", "many"), [r"cases\.csv"])
report_case("cases-csv-nul", edit_csv("cases.csv", "steps", "1\0" + "2"), [r"cases\.csv"])
report_case("cases-csv-non-utf8", lambda ctx, d: put("cases.csv", read_text(os.path.join(d, "cases.csv"))
                                                     .encode().replace(b"ok", b"o\xff", 1))(ctx, d),
            [r"cases\.csv"])
report_case("cases-csv-huge-field", edit_csv("cases.csv", "status_detail", "x" * 300000), [r"cases\.csv"])
report_case("orders-csv-missing", put("orders.csv", None), [r"orders\.csv"])
report_case("series-garbage", lambda ctx, d: put(first_series(d), "t,energy_err\nfoo,bar\n")(ctx, d),
            [r"series"])
report_case("empty-folder", lambda ctx, d: (shutil.rmtree(d), os.makedirs(d))[-1], [r"results|manifest"])
report_case("folder-missing", lambda ctx, d: (shutil.rmtree(d), None)[-1], [r"results"])
report_case("results-is-file", lambda ctx, d: (shutil.rmtree(d), open(d, "w").close())[-1], [r"results"])
report_case("one-damaged-of-two", lambda ctx, d: (shutil.copytree(good_results(ctx), os.path.join(d + "-all", "a")),
                                                  shutil.copytree(d, os.path.join(d + "-all", "b")),
                                                  put("manifest.json", "{")(ctx, os.path.join(d + "-all", "b")),
                                                  d + "-all")[-1], [r"manifest"])
report_case("two-good-ok", lambda ctx, d: (shutil.copytree(good_results(ctx), os.path.join(d + "-all", "a")),
                                           shutil.copytree(d, os.path.join(d + "-all", "b")), d + "-all")[-1],
            status=0)
cli_case("report-unknown-option", ["report", "x", "--out", "y", "--bogus"], r"--bogus", category="report")


# --- resume: damaged result folders -----------------------------------------------------------

RESUME = """\
name: resume
experiments:
  - name: pend
    model: spherical_pendulum
    preset: swing
    T: 0.2
    reference: {integrator: cvode_bdf, rtol: 1e-10, atol: 1e-12}
    plots: [energy]
    runs:
      - integrators: [rk4, lie_euler]
        h: [0.02, 0.01]
      - integrators: [dopri45]
        rtol: 1e-6
  - name: body
    model: free_rigid_body
    preset: elliptic
    T: 0.2
    reference: exact
    runs:
      - integrators: [rkmk4]
        h: [0.05, 0.025]
"""


def fresh_copy(ctx: Ctx, spec_text: str = RESUME) -> tuple[str, str, str]:
    """(spec, fresh, out): a fresh run in `fresh` and a copy of it in `out` to damage."""
    spec = ctx.write("spec.yaml", spec_text)
    fresh = ctx.p("fresh")
    ctx.setup(["study", spec, "--out", fresh, "--quiet", "--jobs", "2"])
    out = ctx.p("out")
    shutil.copytree(fresh, out)
    return spec, fresh, out


def case_ids(d: str) -> list[str]:
    header, rows = cases_table(os.path.join(d, "cases.csv"))
    return [r[header.index("case_id")] for r in rows]


def resume_case(name: str, damage: Callable[[str, list[str]], tuple[str | None, str | None]], note: str = ""):
    """Damage a copy of a fresh result folder, rerun into it: exit 0, the damage reported,
    the numbers equal to the fresh run's. `damage` returns (what the report must name, the
    case id whose record must be readable again)."""
    def fn(ctx: Ctx):
        spec, fresh, out = fresh_copy(ctx)
        reported, repaired = damage(out, case_ids(fresh))
        def check(res: Result) -> list[str]:
            problems = same_results(fresh, out)
            if repaired:
                p = record_problem(os.path.join(out, "cases", repaired + ".json"), repaired)
                if p:
                    problems.append(p)
            return problems
        ctx.check(["study", spec, "--out", out, "--quiet", "--jobs", "2"], 0,
                  [re.escape(reported)] if reported else [], check=check)
    probe(name, "resume", 1, note)(fn)


def case_damage(data: str | bytes | Callable[[str, list[str]], bytes]):
    def damage(out: str, ids: list[str]):
        path = os.path.join(out, "cases", ids[0] + ".json")
        content = data(out, ids) if callable(data) else data
        with open(path, "wb") as f:
            f.write(content.encode() if isinstance(content, str) else content)
        return ids[0], ids[0]
    return damage


def read_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def edited_record(out: str, ids: list[str]) -> bytes:
    j = json.loads(read_bytes(os.path.join(out, "cases", ids[0] + ".json")))
    j["global_err"] = (j.get("global_err") or 1.0) * 2
    j["steps"] = j.get("steps", 0) + 1
    return json.dumps(j, indent=1).encode()


def retyped_record(out: str, ids: list[str]) -> bytes:
    j = json.loads(read_bytes(os.path.join(out, "cases", ids[0] + ".json")))
    j["steps"] = "many"
    return json.dumps(j, indent=1).encode()


for label, data in [("array", "[]"), ("string", '"str"'), ("empty-object", "{}"), ("null", "null"),
                    ("number", "42"), ("empty-file", ""), ("garbage", b"\xff\xfe\x00\x01garbage"),
                    ("id-only", lambda out, ids: json.dumps({"case_id": ids[0]})),
                    ("truncated", lambda out, ids: read_bytes(os.path.join(out, "cases", ids[0] + ".json"))[:200]),
                    ("other-case", lambda out, ids: read_bytes(os.path.join(out, "cases", ids[1] + ".json"))),
                    ("steps-text", retyped_record), ("edited-numbers", edited_record)]:
    resume_case(f"case-record-{label}", case_damage(data),
                note="an edited record (numbers changed) is damage too: the records are sealed"
                if label == "edited-numbers" else "")


def record_is_directory(out: str, ids: list[str]):
    path = os.path.join(out, "cases", ids[0] + ".json")
    os.remove(path)
    os.makedirs(path)
    return ids[0], None


resume_case("case-record-is-directory", record_is_directory)


def reference_damage(change: Callable[[str], bytes]):
    """Damage the cached reference of the first experiment and remove one of its case records,
    so that the rerun has a case to measure against the reference."""
    def damage(out: str, ids: list[str]):
        d = os.path.join(out, "references")
        name = sorted(n for n in os.listdir(d) if n.endswith(".json"))[0]
        path = os.path.join(d, name)
        data = change(path)
        with open(path, "wb") as f:
            f.write(data)
        os.remove(os.path.join(out, "cases", ids[0] + ".json"))
        return name[:-5], None
    return damage


def ref_json(change: Callable[[dict], object]) -> Callable[[str], bytes]:
    def f(path: str) -> bytes:
        j = json.loads(read_bytes(path))
        change(j)
        return json.dumps(j).encode()
    return f


for label, change in [
        ("wrong-length", ref_json(lambda j: j.__setitem__("final_state", [1.0, 2.0]))),
        ("empty-state", ref_json(lambda j: j.__setitem__("final_state", []))),
        ("state-strings", ref_json(lambda j: j.__setitem__("final_state", ["a"] * len(j["final_state"])))),
        ("state-nulls", ref_json(lambda j: j.__setitem__("final_state", [None] * len(j["final_state"])))),
        ("estimate-text", ref_json(lambda j: j.__setitem__("error_estimate", "small"))),
        ("state-edited", ref_json(lambda j: j["final_state"].__setitem__(0, j["final_state"][0] + 0.25))),
        ("array", lambda p: b"[]"), ("empty-object", lambda p: b"{}"),
        ("truncated", lambda p: read_bytes(p)[: len(read_bytes(p)) // 2])]:
    resume_case(f"reference-{label}", reference_damage(change))


def replace_folder_with_file(name: str):
    def damage(out: str, ids: list[str]):
        shutil.rmtree(os.path.join(out, name))
        with open(os.path.join(out, name), "w") as f:
            f.write("not a folder\n")
        return name, None
    return damage


for name in ("cases", "series", "references"):
    resume_case(f"{name}-is-a-file", replace_folder_with_file(name))


def remove(rel: Callable[[list[str]], str]):
    def damage(out: str, ids: list[str]):
        os.remove(os.path.join(out, rel(ids)))
        return None, None
    return damage


resume_case("series-file-deleted", remove(lambda ids: f"series/{ids[0]}.csv"))
resume_case("cases-csv-deleted", remove(lambda ids: "cases.csv"))


def garbage_manifest(out: str, ids: list[str]):
    with open(os.path.join(out, "manifest.json"), "w") as f:
        f.write("{garbage")
    return None, None


resume_case("manifest-garbage", garbage_manifest)


def stale_tmp(rel: Callable[[list[str]], str]):
    def damage(out: str, ids: list[str]):
        path = os.path.join(out, rel(ids))
        with open(path, "w") as f:
            f.write('{"half": ')
        return None, None
    return damage


resume_case("stale-manifest-tmp", stale_tmp(lambda ids: f"manifest.json.tmp.{DEAD_PID}"))
resume_case("stale-case-tmp", stale_tmp(lambda ids: f"cases/{ids[0]}.json.tmp.{DEAD_PID}"))
resume_case("stale-series-tmp", stale_tmp(lambda ids: f"series/{ids[0]}.csv.tmp.{DEAD_PID}"))


def changed_spec(name: str, old: str, new: str, extra: Callable[[str], list[str]] | None = None):
    """Run the resume spec, then a changed one into the same folder: its numbers must equal a
    fresh run of the changed spec."""
    def fn(ctx: Ctx):
        spec, first, out = fresh_copy(ctx)
        spec2 = ctx.write("spec2.yaml", mutate(old, new, RESUME))
        fresh2 = ctx.p("fresh2")
        ctx.setup(["study", spec2, "--out", fresh2, "--quiet", "--jobs", "2"])
        ctx.check(["study", spec2, "--out", out, "--quiet", "--jobs", "2"], 0,
                  check=lambda res: same_results(fresh2, out) + (extra(out) if extra else []))
    probe(name, "resume")(fn)


def has_snapshots(out: str) -> list[str]:
    d = os.path.join(out, "series")
    return [] if any(n.endswith("-snapshots.csv") for n in os.listdir(d)) else ["no snapshots written"]


changed_spec("changed-reference-rtol", "rtol: 1e-10, atol: 1e-12", "rtol: 1e-9, atol: 1e-11")
changed_spec("changed-reference-integrator", "integrator: cvode_bdf", "integrator: odeint_rkf78")
changed_spec("changed-reference-exact-to-solver", "    reference: exact\n",
             "    reference: {integrator: cvode_bdf, rtol: 1e-6, atol: 1e-8}\n")
changed_spec("added-snapshots", "    T: 0.2\n    reference: {", "    T: 0.2\n    snapshots: [0, 0.1]\n    reference: {",
             has_snapshots)
changed_spec("added-parameters", "    preset: swing\n", "    preset: swing\n    parameters: {g: 9.0}\n")


# --- resume: kill -9 during a study, then resume ----------------------------------------------

SLOW = """\
name: slow
experiments:
  - name: dp
    model: double_spherical_pendulum
    preset: lee2009
    T: 2
    reference: {integrator: cvode_bdf, rtol: 1e-10, atol: 1e-12}
    runs:
      - integrators: [rk4, rk2, rkmk4]
        h: [2e-5, 1e-5]
      - integrators: [dopri45]
        rtol: [1e-9, 1e-11]
"""


def slow_baseline(ctx: Ctx) -> tuple[str, str, float]:
    """(spec, folder, seconds) of an uninterrupted run of the slow spec (computed once)."""
    def make():
        shared = os.path.join(ctx.r.root, "_shared")
        os.makedirs(shared, exist_ok=True)
        spec = os.path.join(shared, "slow.yaml")
        with open(spec, "w") as f:
            f.write(SLOW)
        d = os.path.join(shared, "slow")
        res = ctx.setup(["study", spec, "--out", d, "--quiet", "--jobs", "1"])
        return spec, d, res.seconds
    return ctx.r.once("slow", make)


def kill_at_random(ctx: Ctx, args: list[str], seconds: float) -> None:
    h = ctx.spawn(args)
    time.sleep(ctx.random.uniform(0.05, 0.9) * seconds)
    ctx.kill(h)


def kill_probe(name: str, kills: int):
    def fn(ctx: Ctx):
        spec, base, seconds = slow_baseline(ctx)
        out = ctx.p("out")
        args = ["study", spec, "--out", out, "--quiet", "--jobs", "1"]
        for _ in range(kills):
            kill_at_random(ctx, args, seconds)
        finished = valid_records(out)
        def check(res: Result) -> list[str]:
            problems = same_results(base, out)
            after = valid_records(out)
            redone = [n for n, j in finished.items() if after.get(n) != j]
            if redone:
                problems.append(f"{len(redone)} of {len(finished)} finished cases redone or changed "
                                f"(e.g. {redone[0]})")
            return problems
        ctx.check(args, 0, check=check)
    probe(name, "resume", 1, f"study killed {kills} time(s) at random moments, then rerun")(fn)


for i in range(3):
    kill_probe(f"kill-9-then-resume-{i + 1}", 1)
kill_probe("kill-9-twice-then-resume", 2)


# --- concurrency ------------------------------------------------------------------------------

LOCKED = [r"lock|another|running|in use|busy|already"]


def wait_for(path: str, h, limit: float = 10.0) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end and h["proc"].poll() is None:
        if os.path.exists(path):
            return True
        time.sleep(0.01)
    return os.path.exists(path) and h["proc"].poll() is None


def concurrent_probe(name: str, second_spec: str | None, delay: float):
    def fn(ctx: Ctx):
        spec, base, seconds = slow_baseline(ctx)
        out = ctx.p("out")
        first = ctx.spawn(["study", spec, "--out", out, "--quiet", "--jobs", "1"])
        started = wait_for(out, first)
        time.sleep(delay * seconds)
        other = spec if second_spec is None else ctx.write("other.yaml", second_spec)
        inconclusive = [] if started and first["proc"].poll() is None else [
            "inconclusive: the first study was not running when the second started"]
        res = ctx.exec(["study", other, "--out", out, "--quiet", "--jobs", "1"])
        first_res = ctx.wait(first)
        ctx.judge(res, (2,), LOCKED, extra=inconclusive)
        ctx.judge(first_res, (0,), check=lambda r: same_results(base, out))
    probe(name, "concurrency", 2, "a second study on the same --out while the first runs: 2")(fn)


concurrent_probe("second-study-same-spec-early", None, 0.05)
concurrent_probe("second-study-same-spec-late", None, 0.4)
concurrent_probe("second-study-other-spec", TINY, 0.2)


@probe("kill-9-holder-then-rerun", "concurrency",
       note="the lock of a killed study does not block the next one")
def _(ctx: Ctx):
    spec, base, seconds = slow_baseline(ctx)
    out = ctx.p("out")
    h = ctx.spawn(["study", spec, "--out", out, "--quiet", "--jobs", "1"])
    wait_for(out, h)
    time.sleep(0.2 * seconds)
    ctx.kill(h)
    ctx.check(["study", spec, "--out", out, "--quiet", "--jobs", "1"], 0,
              check=lambda res: same_results(base, out))


# ---------------------------------------------------------------------------------------------
# Driver

def run_probe(runner: Runner, p: Probe, index: int) -> None:
    ctx = Ctx(runner, p.name, p.category, p.calls, index)
    try:
        p.fn(ctx)
        if ctx.done != p.calls:
            ctx.fail_rest(WRONG, f"probe made {ctx.done} of its {p.calls} invocations")
    except SetupError as e:
        ctx.fail_rest(e.verdict, str(e))
    except Exception as e:  # a bug in the probe, not in geomint: say so loudly
        ctx.fail_rest(WRONG, f"PROBE ERROR {e.__class__.__name__}: {e}")
    finally:
        for h in ctx.handles:  # nothing the probe started outlives it
            if h["proc"].poll() is None:
                ctx.kill(h)
        if not runner.verbose:
            shutil.rmtree(ctx.work, ignore_errors=True)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description="geomint under hostile input (issue 12)")
    ap.add_argument("geomint", help="the geomint executable")
    ap.add_argument("--jobs", type=int, default=2, help="probes run at once (default 2)")
    ap.add_argument("--list", action="store_true", help="list the probes and exit")
    ap.add_argument("--only", help="run the probes whose name or category matches this glob")
    ap.add_argument("--verbose", action="store_true", help="show every invocation; keep the folders")
    ap.add_argument("--seed", type=int, default=None, help="seed of the kill moments (default: random)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds before an invocation is hung")
    args = ap.parse_args(argv)

    chosen = [p for p in PROBES if not args.only or any(
        fnmatch.fnmatch(s, args.only) or args.only in s for s in (p.name, p.category, f"{p.category}/{p.name}"))]
    if args.list:
        for p in chosen:
            print(f"{p.category:12} {p.name:45} {p.calls}  {p.note}")
        per = {c: sum(p.calls for p in chosen if p.category == c) for c in CATEGORIES}
        print(f"{len(chosen)} probes, {sum(per.values())} invocations: "
              + ", ".join(f"{c} {n}" for c, n in per.items() if n))
        return 0
    geomint = os.path.abspath(args.geomint)
    if not os.access(geomint, os.X_OK):
        print(f"probe: {args.geomint} is not an executable", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    root = tempfile.mkdtemp(prefix="geomint-hostile-")
    os.chmod(root, 0o755)
    runner = Runner(geomint, args.timeout, args.verbose, seed, root)
    start = time.monotonic()
    print(f"probe: {geomint}: {len(chosen)} probes, seed {seed}, timeout {args.timeout:g} s, jobs {args.jobs}")
    sys.stdout.flush()
    # The probes that take longest first, so that the pool ends together.
    order = sorted(range(len(chosen)), key=lambda i: chosen[i].category not in ("resume", "concurrency"))
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for f in [pool.submit(run_probe, runner, chosen[i], i) for i in order]:
                f.result()
    finally:
        if not args.verbose:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"probe: folders kept in {root}")
    elapsed = time.monotonic() - start

    records = runner.records
    position = {(p.category, p.name): i for i, p in enumerate(chosen)}
    for rec in sorted(records, key=lambda r: position[(r.category, r.probe)]):
        if rec.verdict == HANDLED:
            continue
        shown = show_args(rec.work, rec.args)
        print(f"{rec.verdict.upper():7} {rec.category}/{rec.probe}: {shown}")
        for reason in rec.reasons:
            print(f"        - {reason}")
        first = lines_of(rec.stderr)
        if first and rec.verdict != HUNG:
            print(f"        stderr: {first[0][:240]}" + (f" (+{len(first) - 1} lines)" if len(first) > 1 else ""))
    if args.verbose:
        print("probe: the slowest invocations:")
        for rec in sorted(records, key=lambda r: -r.seconds)[:15]:
            print(f"  {rec.seconds:6.2f} s {rec.category}/{rec.probe}")
    count = {v: sum(r.verdict == v for r in records) for v in (HANDLED, WRONG, CRASHED, HUNG)}
    per = {c: sum(r.category == c for r in records) for c in CATEGORIES}
    print(f"probe: by category: " + ", ".join(f"{c} {n}" for c, n in per.items() if n)
          + f"; {runner.setups} setup invocations; {elapsed:.0f} s")
    print(f"probe: {len(records)} invocations: {count[HANDLED]} handled, {count[WRONG]} wrong, "
          f"{count[CRASHED]} crashed, {count[HUNG]} hung")
    return 0 if count[WRONG] == count[CRASHED] == count[HUNG] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
