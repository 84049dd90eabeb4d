"""Label `mpi`: geomint's studies under MPI.

Usage: test_mpi.py PATH_TO_GEOMINT PATH_TO_MPIRUN. Runs small studies in one process and under
`mpirun --oversubscribe -np 3`, and checks that the result folders are the same in every file
and column except timings; that killing one rank (kill -9) ends the job with a message naming
it, and that running the job again redoes only the cases that had not finished.
"""
import csv
import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

GEOMINT = MPIRUN = ""
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMINGS = {"cpu_s", "cpu_repetitions", "cpu_timed_s"}  # the only columns (and record fields) that may differ
# Manifest fields that describe the run rather than its results.
RUN_FIELDS = {"started", "finished", "wall_s", "cases_cpu_s", "references_s", "ranks", "threads_per_rank", "machine", "resumed"}


def mpirun(*args: str, launcher: tuple = ()) -> list:
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return [MPIRUN, *root, "--oversubscribe", "-np", "3", *launcher, GEOMINT, *args]


def run(command: list) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def without_timings(path: str):
    """A result file's content with the timing columns and fields left out."""
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        if not rows:
            return rows
        keep = [i for i, name in enumerate(rows[0]) if name not in TIMINGS]
        return [[row[i] for i in keep if i < len(row)] for row in rows]
    if path.endswith(".json"):
        with open(path) as f:
            j = json.load(f)
        if os.path.basename(path) == "manifest.json":
            return {k: v for k, v in j.items() if k not in RUN_FIELDS}
        if os.path.basename(os.path.dirname(path)) == "cases":  # a record, sealed by a checksum
            return {k: v for k, v in j.items() if k not in TIMINGS | {"checksum"}}
        return j
    with open(path, "rb") as f:
        return f.read()


def result_files(folder: str) -> list:
    found = []
    for parent, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "damaged"]
        for name in files:
            if name in (".lock", "costs.json"):  # the lock, and the costs of earlier runs
                continue
            found.append(os.path.relpath(os.path.join(parent, name), folder))
    return sorted(found)


class SameResults(unittest.TestCase):
    def assert_same_folders(self, single: str, ranks: str):
        files = result_files(single)
        self.assertEqual(files, result_files(ranks))
        for name in ("cases.csv", "orders.csv", "manifest.json"):
            self.assertIn(name, files)
        for name in files:
            self.assertEqual(without_timings(os.path.join(single, name)),
                             without_timings(os.path.join(ranks, name)), name)

    def check_study(self, spec: str, expected: tuple, inspect=None):
        """The spec under MPI gives the single process's files, the `expected` among them;
        `inspect`, if given, is called with the MPI run's folder."""
        with tempfile.TemporaryDirectory() as tmp:
            single, ranks = os.path.join(tmp, "single"), os.path.join(tmp, "ranks")
            r = run([GEOMINT, "study", os.path.join(SOURCE, spec), "--out", single, "--quiet"])
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run(mpirun("study", os.path.join(SOURCE, spec), "--out", ranks, "--quiet"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr.count("geomint study"), 1, r.stderr)  # rank 0 reports
            with open(os.path.join(ranks, "manifest.json")) as f:
                manifest = json.load(f)
            self.assertEqual(manifest["ranks"], 3)
            self.assertGreater(manifest["cases_cpu_s"], 0.0)
            files = result_files(ranks)
            for name in expected:
                self.assertTrue(any(f.startswith(name) for f in files), name)
            self.assert_same_folders(single, ranks)
            if inspect:
                inspect(ranks)

    def test_lee2009_reproduction_and_series(self):
        self.check_study("studies/lee2009.yaml", ("reproduction.csv", "series/"))

    def test_dutoit2005_evocations(self):
        self.check_study("studies/dutoit2005.yaml", ("series/", "evocation/"))

    def test_steps_the_window_search_adds(self):
        """Rank 0 adds cases at steps the spec does not list; the workers run them as copies of
        the spec's cases (CaseTask::of)."""
        def five_added(folder: str):
            with open(os.path.join(folder, "cases.csv")) as f:
                added = [c for c in csv.DictReader(f) if c["added_step"] == "1"]
            self.assertEqual(len(added), 5)  # rk4 and rkmk4 one each, lie_euler three
        self.check_study("tests/mpi/window_search.yaml", ("verdicts.csv",), five_added)

    def test_the_comparison_sees_a_changed_column(self):
        """The folder comparison fails when one number differs (so the tests above can fail)."""
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
            spec = os.path.join(SOURCE, "studies/rigid_body.yaml")
            for out in (a, b):
                r = run([GEOMINT, "study", spec, "--out", out, "--quiet"])
                self.assertEqual(r.returncode, 0, r.stderr)
            self.assert_same_folders(a, b)
            with open(os.path.join(b, "cases.csv")) as f:
                text = f.read()
            rows = text.splitlines()
            header = rows[0].split(",")
            row = rows[1].split(",")
            row[header.index("global_err")] = "1"
            rows[1] = ",".join(row)
            with open(os.path.join(b, "cases.csv"), "w") as f:
                f.write("\n".join(rows) + "\n")
            with self.assertRaises(AssertionError):
                self.assert_same_folders(a, b)

    def test_bad_input_is_one_line_from_one_rank(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run(mpirun("study", os.path.join(tmp, "missing.yaml"), "--out", os.path.join(tmp, "o")))
            self.assertNotEqual(r.returncode, 0)
            self.assertEqual(r.stderr.count("geomint: "), 1, r.stderr)
            self.assertIn("missing.yaml", r.stderr)

    def test_a_folder_rank_0_cannot_take_ends_every_rank(self):
        # Rank 0 fails to take the result folder after every rank read the spec: the other
        # ranks stop with it (docs/cluster.md: exit 2 or 4) instead of waiting for cases.
        with tempfile.TemporaryDirectory() as tmp:
            spec = os.path.join(SOURCE, "studies", "rigid_body.yaml")
            r = subprocess.run(mpirun("study", spec, "--out", "/proc/no/such/folder", "--quiet"),
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 4, r.stderr)
            self.assertEqual(r.stderr.count("geomint: "), 1, r.stderr)
            self.assertIn("cannot create the folder /proc/no/such/folder", r.stderr)
            held = os.path.join(tmp, "held")
            os.mkdir(held)
            with open(os.path.join(held, ".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # as another geomint process holding it would
                r = subprocess.run(mpirun("study", spec, "--out", held, "--quiet"),
                                   capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(r.stderr.count("geomint: "), 1, r.stderr)
            self.assertIn("is in use by another geomint process", r.stderr)


# Cases of about a second each, so that a rank can be killed while some have finished.
SLOW_SPEC = textwrap.dedent("""\
    name: slow
    title: Cases long enough to kill a rank among them
    description: The implicit variational integrator on the double pendulum at small steps.
    experiments:
      - name: slow
        title: double pendulum
        model: double_spherical_pendulum
        preset: lee2009
        T: 400
        series: false
        runs:
          - integrators: [vi_implicit]
            h: [2.0e-4, 2.1e-4, 2.2e-4, 2.3e-4, 2.4e-4, 2.5e-4, 2.6e-4, 2.7e-4,
                2.8e-4, 2.9e-4, 3.0e-4, 3.1e-4, 3.2e-4, 3.3e-4, 3.4e-4, 3.5e-4]
    """)


def rank_pids(mpirun_pid: int) -> dict:
    """The geomint processes of a running job, by rank (from their environment)."""
    pids = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().split(b"\0")[0]
        except OSError:
            continue
        if os.path.basename(command) == b"geomint" and b"OMPI_COMM_WORLD_RANK" in env \
                and env.get(b"GEOMINT_TEST_JOB") == str(mpirun_pid).encode():
            pids[int(env[b"OMPI_COMM_WORLD_RANK"])] = int(entry)
    return pids


class KilledRank(unittest.TestCase):
    def test_a_killed_rank_ends_the_job_and_the_rerun_resumes(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec = os.path.join(tmp, "slow.yaml")
            with open(spec, "w") as f:
                f.write(SLOW_SPEC)
            out, single = os.path.join(tmp, "out"), os.path.join(tmp, "single")
            tag = str(os.getpid())
            env = dict(os.environ, GEOMINT_TEST_JOB=tag)
            job = subprocess.Popen(mpirun("study", spec, "--out", out, "--quiet", launcher=("-x", "GEOMINT_TEST_JOB")),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            cases = os.path.join(out, "cases")
            deadline = time.time() + 120
            while time.time() < deadline and (not os.path.isdir(cases) or len(os.listdir(cases)) < 3):
                time.sleep(0.05)
            pids = {}
            while time.time() < deadline and 2 not in pids:
                pids = rank_pids(int(tag))
            os.kill(pids[2], signal.SIGKILL)
            _, stderr = job.communicate(timeout=120)
            self.assertNotEqual(job.returncode, 0)
            self.assertRegex(stderr, r"rank 2 .*(signal 9|Killed)", stderr)
            finished = len([n for n in os.listdir(cases) if n.endswith(".json")])
            self.assertGreaterEqual(finished, 3)
            self.assertLess(finished, 16, "the job finished before the kill: nothing to resume")

            r = run(mpirun("study", spec, "--out", out))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn(f"16 cases ({finished} resumed, 0 failed", r.stderr)
            self.assertEqual(r.stderr.count(", resumed"), finished)
            r = run([GEOMINT, "study", spec, "--out", single, "--quiet"])
            self.assertEqual(r.returncode, 0, r.stderr)
            SameResults().assert_same_folders(single, out)


if __name__ == "__main__":
    GEOMINT, MPIRUN = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
