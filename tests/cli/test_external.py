"""Label `cli`: integrators outside geomint, run as commands (docs/external-integrators.md).

Usage: test_external.py PATH_TO_GEOMINT SOURCE_DIR. The worked examples (Heun's method in
NumPy, the explicit midpoint rule in awk wrapped in sh) are verified on the spherical pendulum
and the free rigid body with their order kept, against geomint's reference: an exact solution
or Fehlberg 7(8), not the command's own numbers. Explicit Euler declared of order 2 is broken,
with exit status 5 and the promise named. Hostile commands (exit 1, hang, NaN, three columns,
nothing, 10 GB, short, off the manifold) each end their case with its typed status and one
line, `verify` with status 3, and a study's other cases are kept. An edited script is rerun;
an unchanged one is not.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

GEOMINT = ""
SOURCE = ""
PYTHON = sys.executable  # the python that runs this test: Debian's, with NumPy


def geomint(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([GEOMINT, *args], capture_output=True, text=True, timeout=600, cwd=cwd)


def verdicts(folder: str) -> list[dict[str, str]]:
    with open(os.path.join(folder, "verdicts.csv"), newline="") as f:
        return list(csv.DictReader(f))


def cases(folder: str) -> list[dict[str, str]]:
    with open(os.path.join(folder, "cases.csv"), newline="") as f:
        return list(csv.DictReader(f))


class ExternalIntegrators(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        examples = os.path.join(SOURCE, "docs", "examples", "external")
        cls.heun = f"{PYTHON} {os.path.join(examples, 'heun.py')} --init {{init}} --out {{out}} --work {{work}}"
        cls.midpoint = (f"sh {os.path.join(examples, 'midpoint.sh')} {{model}} {{params}} {{state}} {{t0}} {{T}} "
                        "{h} {steps} {out}")
        cls.hostile = os.path.join(SOURCE, "tests", "cli", "hostile_command.py")

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def out(self, name: str) -> str:
        return os.path.join(self.dir.name, name)

    def verify(self, command: str, out: str, *args: str) -> subprocess.CompletedProcess:
        return geomint("verify", "--command", command, "--model", "spherical_pendulum", "--model",
                       "free_rigid_body", "--out", out, "--quiet", *args)

    def assert_order_kept(self, out: str, r: subprocess.CompletedProcess):
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        order = [v for v in verdicts(out) if v["promise"] == "order"]
        self.assertEqual(sorted(v["model"] for v in order), ["free_rigid_body", "spherical_pendulum"])
        for v in order:
            self.assertEqual(v["state"], "kept", v)
            self.assertAlmostEqual(float(v["value"]), 2.0, delta=0.2)
        self.assertIn("verdicts: 2 kept, 0 broken", r.stdout)
        for c in cases(out):
            self.assertEqual((c["status"], c["family"]), ("ok", "external"), c)
            self.assertGreater(float(c["cpu_s"]), 0.0)

    def test_heun_in_numpy_keeps_its_order_on_both_models(self):
        out = self.out("heun")
        r = self.verify(self.heun, out, "--order", "2", "--name", "heun_numpy")
        self.assert_order_kept(out, r)
        # It reported its work: two evaluations a step.
        for c in cases(out):
            self.assertEqual(int(c["f_evals"]), 2 * int(c["steps"]), c)
        # The generated study reruns as it is, every case from the folder.
        rerun = geomint("study", os.path.join(out, "verify.yaml"), "--out", out, "--quiet")
        self.assertEqual(rerun.returncode, 0, rerun.stderr)
        self.assertIn(f"{len(cases(out))} resumed", rerun.stderr)

    def test_the_midpoint_rule_in_awk_wrapped_in_sh_keeps_its_order(self):
        out = self.out("midpoint")
        r = self.verify(self.midpoint, out, "--order", "2", "--name", "midpoint_awk")
        self.assert_order_kept(out, r)
        for c in cases(out):  # no work file: evaluations unknown, not 0
            self.assertEqual(c["f_evals"], "", c)

    def test_euler_declared_second_order_is_broken_naming_the_promise(self):
        out = self.out("euler")
        r = self.verify(self.heun + " --euler", out, "--order", "2", "--name", "euler_as_heun")
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        broken = [v for v in verdicts(out) if v["state"] == "broken"]
        self.assertEqual(sorted(v["model"] for v in broken), ["free_rigid_body", "spherical_pendulum"])
        for v in broken:
            self.assertEqual((v["promise"], v["why"]), ("order", "below_nominal"))
            self.assertAlmostEqual(float(v["value"]), 1.0, delta=0.2)
        self.assertRegex(r.stdout, r"spherical_pendulum\s+order\s+broken")
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        # Explicit Euler also leaves the sphere at the largest steps: those runs failed, and say so.
        self.assertRegex(lines[0], r"^geomint: verify: 2 promises of euler_as_heun broken; \d+ of \d+ runs of "
                                   r"euler_as_heun failed")

    def test_a_declared_momentum_map_is_judged(self):
        # Heun's method keeps no quadratic invariant: L_z of the pendulum drifts at O(h^2).
        out = self.out("heun-momentum")
        r = geomint("verify", "--command", self.heun, "--order", "2", "--momentum", "--model", "spherical_pendulum",
                    "--out", out, "--quiet")
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        momentum = [v for v in verdicts(out) if v["promise"] == "momentum"]
        self.assertEqual([v["state"] for v in momentum], ["broken"])
        self.assertGreater(float(momentum[0]["value"]), 1e-10)

    def test_hostile_commands_fail_typed_with_one_line_and_status_3(self):
        expected = {  # mode: (status, words of its message)
            "fails": ("CommandFailed", "exited with status 1; its last words on stderr: hostile_command.py: it broke"),
            "hang": ("CommandTimeout", "ran longer than its timeout of 1 s"),
            "nan": ("NonFinite", "= 'nan'"),
            "three_columns": ("MalformedOutput", "column 4 is missing, expected q1_z"),
            "nothing": ("MalformedOutput", "it wrote no trajectory"),
            "huge": ("CommandFailed", "reached the limit of"),
            "short": ("MalformedOutput", "short of T = 1"),
            "off_manifold": ("LeftManifold", "a manifold defect is 1"),
            "work_fifo": ("MalformedOutput", "its work file is not a regular file"),
            "work_zero": ("MalformedOutput", "its work file is not a regular file"),
        }
        for mode, (status, words) in expected.items():
            with self.subTest(mode=mode):
                command = ("sleep 100; : {out}" if mode == "hang"
                           else f"{PYTHON} {self.hostile} {mode} {{init}} {{out}} {{work}}")
                r = geomint("verify", "--command", command, "--order", "1", "--timeout", "1", "--model",
                            "spherical_pendulum", "--h", "0.1", "--T", "1", "--out", self.out("hostile-" + mode),
                            "--quiet")
                self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
                lines = r.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                self.assertIn("geomint: verify: 1 of 1 runs of external failed", lines[0])
                self.assertIn(status, lines[0])
                self.assertIn(words, lines[0])
                (case,) = cases(self.out("hostile-" + mode))
                self.assertEqual(case["status"], status)

    def test_a_study_keeps_its_other_cases_and_reruns_an_edited_script(self):
        work = self.out("study")
        os.makedirs(work)
        shutil.copy(os.path.join(SOURCE, "docs", "examples", "external", "heun.py"), work)
        shutil.copy(self.hostile, work)
        spec = os.path.join(work, "spec.yaml")
        with open(spec, "w") as f:
            f.write(f"""name: external
title: external commands among their peers
experiments:
  - name: pendulum
    model: spherical_pendulum
    preset: swing
    T: 1
    reference: {{integrator: odeint_rkf78, rtol: 1e-13, atol: 1e-15}}
    runs:
      - integrators: [heun_numpy, rk2, broken, empty]
        h: [0.1, 0.05, 0.025]
methods:
  - name: heun_numpy
    kind: command
    command: "{PYTHON} heun.py --init {{init}} --out {{out}} --work {{work}}"
    order: 2
  - name: broken
    kind: command
    command: "{PYTHON} hostile_command.py fails {{init}} {{out}}"
    order: 2
  - name: empty
    kind: command
    command: "{PYTHON} hostile_command.py nothing {{init}} {{out}}"
    order: 2
""")
        out = os.path.join(work, "out")
        r = geomint("study", spec, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        status = {(c["integrator"], c["h"]): c["status"] for c in cases(out)}
        for h in ("0.1", "0.05", "0.025"):
            self.assertEqual(status[("heun_numpy", h)], "ok")
            self.assertEqual(status[("rk2", h)], "ok")
            self.assertEqual(status[("broken", h)], "CommandFailed")
            self.assertEqual(status[("empty", h)], "MalformedOutput")
        # Each failure has a line of its own on stderr, saying how.
        self.assertEqual(r.stderr.count("CommandFailed at t = 0: the command exited with status 1"), 3, r.stderr)
        order = {v["integrator"]: v for v in verdicts(out) if v["promise"] == "order"}
        self.assertEqual(order["heun_numpy"]["state"], "kept")
        self.assertEqual((order["broken"]["state"], order["broken"]["why"]), ("not_checked", "failed"))
        # The same spec again: everything from the folder. The script edited: its cases rerun.
        again = geomint("study", spec, "--out", out, "--quiet")
        self.assertIn("(12 resumed", again.stderr)
        with open(os.path.join(work, "heun.py"), "a") as f:
            f.write("# edited\n")
        edited = geomint("study", spec, "--out", out, "--quiet")
        self.assertIn("(9 resumed", edited.stderr)

    def test_a_bad_template_is_refused_before_anything_runs(self):
        for command, words in (("python3 x.py {init}", "no {out}"),
                               ("python3 x.py {out} {hh}", "unknown placeholder {hh}"),
                               ("python3 x.py {out} {rtol}", "{rtol}, which a fixed-step method has not"),
                               ("python3 x.py {out", "never closed")):
            with self.subTest(command=command):
                out = self.out("refused")
                r = geomint("verify", "--command", command, "--order", "2", "--model", "spherical_pendulum",
                            "--out", out)
                self.assertEqual(r.returncode, 2, r.stderr)
                lines = r.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                self.assertIn(words, lines[0])
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    GEOMINT, SOURCE = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1])
