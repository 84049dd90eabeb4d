"""Label `cli`: the geomint executable as a user drives it.

Usage: test_cli.py PATH_TO_GEOMINT. Checks help texts, `list`, the `run` CSV columns (a model's
named outputs after the invariants), that bad input gets one line and exit status 2, that an
integration failure gets one line, exit status 3 and keeps the series up to it, that `study` writes its result files and resumes, and that it
runs methods a spec defines by their coefficients and refuses one short of its declared order.
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

from one_line_refusal import assert_one_line_refusal

GEOMINT = ""


def geomint(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([GEOMINT, *args], capture_output=True, text=True, timeout=600)


class Help(unittest.TestCase):
    def test_every_subcommand_has_help(self):
        for sub in ([], ["list"], ["run"], ["study"], ["report"]):
            r = geomint(*sub, "--help")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("Usage", r.stdout)

    def test_list_models_shows_parameters_and_presets(self):
        r = geomint("list", "models")
        self.assertEqual(r.returncode, 0)
        for text in ("double_spherical_pendulum", "m1", "l2", "lee2009", "spherical_pendulum"):
            self.assertIn(text, r.stdout)

    def test_list_models_shows_each_parameters_domain(self):
        lines = geomint("list", "models").stdout.splitlines()
        first = lines.index("double_spherical_pendulum")
        rows = {line.split()[0]: line for line in lines[first + 3:first + 8]}
        self.assertIn("positive numbers", rows["m1"])
        self.assertIn("finite numbers", rows["g"])
        self.assertIn("one of 0, 1", geomint("list", "models").stdout)

    def test_list_models_names_the_integrators_that_run_on_each(self):
        # Against `run` itself: a listed integrator takes a step on the model, an unlisted one
        # is refused as n/a (the model lacks the view it needs).
        listing = geomint("list", "models").stdout.splitlines()
        steps = {line.split()[0]: line.split()[3]
                 for line in geomint("list", "integrators").stdout.splitlines()[1:] if line.strip()}
        names = list(steps)
        with tempfile.TemporaryDirectory() as tmp:
            for model in ("spherical_pendulum", "free_rigid_body"):
                start = listing.index(model)
                line = next(l for l in listing[start:] if l.startswith("  integrators:"))
                runs_on = set(line.split()[1:])
                self.assertTrue(runs_on and runs_on <= set(names), line)
                for name in names:
                    control = (["--h", "0.01"] if steps[name] == "fixed"
                               else ["--rtol", "1e-6", "--atol", "1e-9"])
                    r = geomint("run", "--model", model, "--integrator", name, "--T", "0.01",
                                *control, "--out", os.path.join(tmp, "run.csv"))
                    if name in runs_on:
                        self.assertEqual(r.returncode, 0, f"{name} on {model}: {r.stderr}")
                    else:
                        self.assertEqual(r.returncode, 2, f"{name} on {model}: {r.stderr}")
                        self.assertIn("view", r.stderr)


class Run(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "run.csv")

    def tearDown(self):
        self.dir.cleanup()

    def rows(self):
        with open(self.out) as f:
            return list(csv.reader(f))

    def test_columns_are_time_state_invariants(self):
        r = geomint("run", "--model", "double_spherical_pendulum", "--preset", "lee2009",
                    "--integrator", "vi_implicit", "--h", "0.01", "--T", "1", "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = self.rows()
        self.assertEqual(rows[0], ["t"] + [f"{v}{i}_{a}" for v in "qw" for i in (1, 2) for a in "xyz"]
                         + ["energy", "Lz", "unit_1", "unit_2", "tangency_1", "tangency_2"])
        self.assertEqual(len(rows), 1 + 101)
        self.assertEqual(float(rows[-1][0]), 1.0)
        self.assertEqual(rows[1][1:4], ["0.8660254037844386", "0", "0.5"])

    def test_a_models_outputs_follow_the_invariants(self):
        r = geomint("run", "--model", "quadrotors_payload", "--preset", "celledoni2021",
                    "--integrator", "rk4", "--h", "0.01", "--T", "0.1", "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = self.rows()
        self.assertEqual(rows[0][-5:], ["unit_q2", "tangency_w2", "load_tracking_error",
                                        "link1_direction_error", "link2_direction_error"])
        self.assertEqual(len(rows), 1 + 11)
        self.assertTrue(all(len(row) == len(rows[0]) for row in rows))
        # |y(0) - y_d(0)|: the load at (-2, 0, 0), y_d(0) = (-2.5, 0, 2.5^2 - 7) (models/
        # desired_load_trajectory.hpp, Celledoni Sec. 6.2).
        self.assertAlmostEqual(float(rows[1][-3]), (0.5 ** 2 + 0.75 ** 2) ** 0.5, places=14)

    def expect_refused(self, args, *phrases):
        r = geomint("run", *args, "--out", self.out)
        assert_one_line_refusal(self, r, *phrases)

    def test_bad_input_gets_one_line_and_status_2(self):
        base = ["--integrator", "rk4", "--h", "0.01"]
        self.expect_refused(["--model", "no_such_model", *base], "unknown model", "double_spherical_pendulum")
        self.expect_refused(["--model", "spherical_pendulum", "--integrator", "rk9", "--h", "0.1"], "unknown integrator")
        self.expect_refused(["--model", "spherical_pendulum", "--param", "mass=2", *base], "unknown parameter", "m, l, g")
        self.expect_refused(["--model", "spherical_pendulum", "--param", "l=-1", *base],
                            "parameter l = -1 is outside its domain (positive numbers)")
        self.expect_refused(["--model", "spherical_pendulum", "--integrator", "rk4"], "give a step size h")
        self.expect_refused(["--model", "spherical_pendulum", "--integrator", "rk4", "--h", "-0.1"], "positive")
        self.expect_refused(["--model", "spherical_pendulum", "--ic", "q1=1,0,1", *base], "off the manifold", "--project")
        self.expect_refused(["--model", "spherical_pendulum", "--ic", "q7=0,0,1", *base], "unknown initial vector")
        self.expect_refused(["--model", "double_spherical_pendulum", "--integrator", "vi_explicit", "--h", "0.01"],
                            "n/a", "diagonal-inertia SphereLagrangian")
        self.expect_refused(["--model", "spherical_pendulum", "--preset", "", *base], "--preset is empty")

    def test_an_empty_out_is_refused_and_a_missing_folder_is_named_not_made(self):
        base = ["run", "--model", "spherical_pendulum", "--integrator", "rk4", "--h", "0.1"]
        assert_one_line_refusal(self, geomint(*base, "--out", ""), "--out is empty")
        missing = os.path.join(self.dir.name, "no_such_folder", "deeper")
        r = geomint(*base, "--out", os.path.join(missing, "x.csv"))
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertIn(f"the folder {missing} does not exist", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "no_such_folder")))

    def test_parameter_outside_its_domain_is_refused_before_the_output_is_touched(self):
        base = ["--model", "double_spherical_pendulum", "--integrator", "rk4", "--h", "0.01"]
        self.expect_refused([*base, "--param", "g=nan"], "double_spherical_pendulum: parameter g = nan "
                            "is outside its domain (finite numbers)")
        self.assertFalse(os.path.exists(self.out))
        with open(self.out, "w") as f:
            f.write("kept\n")
        self.expect_refused([*base, "--param", "m1=-1"],
                            "parameter m1 = -1 is outside its domain (positive numbers)")
        with open(self.out) as f:
            self.assertEqual(f.read(), "kept\n")

    def test_project_projects_and_says_so(self):
        r = geomint("run", "--model", "spherical_pendulum", "--ic", "q1=1,0,1", "--project",
                    "--integrator", "rk4", "--h", "0.01", "--T", "0.1", "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("projected", r.stderr)
        q = [float(x) for x in self.rows()[1][1:4]]
        self.assertAlmostEqual(sum(x * x for x in q), 1.0, places=14)

    def run_every(self, every, *args):
        """The rows and summary of a run at --every `every` (None: without the option)."""
        thin = [] if every is None else ["--every", str(every)]
        r = geomint("run", "--model", "spherical_pendulum", *args, *thin, "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        return self.rows(), r.stderr.split(";")[1]

    def test_every_writes_the_first_every_nth_and_the_last_point(self):
        for args in (["--integrator", "rk4", "--h", "0.01", "--T", "1"],
                     ["--integrator", "dopri45", "--rtol", "1e-6", "--T", "3"]):
            full, errors = self.run_every(None, *args)
            points = full[1:]
            for every in (1, 3, 10, 30, len(points) - 1, len(points) + 5):
                kept = points[::every] + ([] if (len(points) - 1) % every == 0 else points[-1:])
                rows, thin_errors = self.run_every(every, *args)
                self.assertEqual(rows, [full[0]] + kept, (args, every))
                self.assertEqual(thin_errors, errors)  # the summary is over every point

    def test_every_takes_a_positive_whole_number(self):
        base = ["--model", "spherical_pendulum", "--integrator", "rk4", "--h", "0.01"]
        for bad in ("0", "-1", "1.5", "ten", "nan"):
            self.expect_refused([*base, "--every", bad], "--every")

    def test_the_output_cap_counts_the_rows_that_will_be_written(self):
        base = ["--model", "spherical_pendulum", "--integrator", "rk4", "--h", "1e-3", "--max-output", "2000"]
        self.expect_refused(base, "1e+03 rows", "more than --max-output 2000")
        r = geomint("run", *base, "--every", "500", "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([float(row[0]) for row in self.rows()[1:]], [0.0, 0.5, 1.0])

    def test_output_times_write_the_first_point_at_or_after_each_time(self):
        base = ["--model", "spherical_pendulum", "--integrator", "rk4", "--h", "0.01", "--T", "1"]
        full, _ = self.run_every(None, *base[2:])
        times = [float(row[0]) for row in full[1:]]
        for spec, wanted in (("0:0.25:1", [0, 0.25, 0.5, 0.75, 1]), ("0.004,0.3,0.305,1", [0.004, 0.3, 0.305, 1])):
            r = geomint("run", *base, "--output-times", spec, "--out", self.out)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = [float(row[0]) for row in self.rows()[1:]]
            expected = sorted({min(t for t in times if t >= w - 1e-11) for w in wanted})
            self.assertEqual(got, expected, spec)
        for bad in ("0:0:1", "0:0.1", "1:0.1:0", "0,0.5,0.2", "0:0.1:2", "-1,0.5", "a,b", "0:1e-300:1"):
            self.expect_refused([*base, "--output-times", bad], "--output-times")
        self.expect_refused([*base, "--output-times", "0,1", "--every", "2"], "not both")
        self.expect_refused([*base, "--stats-only", "--every", "2"], "--stats-only")

    def test_stats_only_writes_the_long_time_statistics_and_no_series(self):
        # 10^5 steps of the explicit VI: a bounded energy error, round-off in the momentum map.
        r = geomint("run", "--model", "spherical_pendulum", "--integrator", "vi_explicit", "--h", "0.01",
                    "--T", "1000", "--stats-only", "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            stats = json.load(f)
        self.assertEqual(stats["points"], 100001)
        # Sampled: 32 a bin on average once bins hold more steps, every step before.
        self.assertLess(stats["samples"], 5000)
        by_name = {q["name"]: q for q in stats["quantities"]}
        self.assertEqual(set(by_name), {"energy", "Lz", "unit_1", "tangency_1"})
        energy = by_name["energy"]
        self.assertLess(abs(energy["alpha"]), 0.2, energy)
        self.assertEqual(sum(energy["bins"]["count"]), stats["samples"] - 1)  # t = 0 is in no bin
        self.assertLess(by_name["Lz"]["abs_max"], 1e-12)
        for q in stats["quantities"]:
            self.assertIn(q["name"] + ": max |err|", r.stderr)

    def test_failure_is_typed_with_its_time_and_keeps_the_series(self):
        r = geomint("run", "--model", "spherical_pendulum", "--integrator", "vi_explicit",
                    "--h", "2", "--T", "10", "--out", self.out)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("NonConvergence at t = 0", r.stderr)
        self.assertGreaterEqual(len(self.rows()), 2)  # header and the initial state


SPEC = textwrap.dedent("""\
    name: tiny
    title: A tiny study
    experiments:
      - name: pendulum
        model: spherical_pendulum
        preset: swing
        T: 0.5
        reference: {rtol: 1e-10, atol: 1e-12}
        plots: [energy, convergence]
        runs:
          - integrators: [rk4, vi_explicit]
            h: [0.05, 0.025, 0.0125]
        published:
          - {example: made up, method: VI, integrator: vi_explicit, h: 0.05, role: printed,
             energy_err_mean: 1.0e-3}
    """)


class Study(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.spec = os.path.join(self.d, "tiny.yaml")
        with open(self.spec, "w") as f:
            f.write(SPEC)
        self.out = os.path.join(self.d, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def test_more_worker_threads_than_the_cap_are_refused_before_anything_is_written(self):
        assert_one_line_refusal(self, geomint("study", self.spec, "--out", self.out, "--jobs", "100000"),
                                "jobs = 100000 is outside 0 to 1024")
        self.assertFalse(os.path.exists(self.out))

    def test_a_spec_that_is_a_pipe_or_a_device_is_refused_unread(self):
        fifo = os.path.join(self.d, "spec.yaml")
        os.mkfifo(fifo)  # nobody writes it: reading it would block for ever
        for spec in (fifo, "/dev/zero"):
            r = subprocess.run([GEOMINT, "study", spec, "--out", self.out],
                               capture_output=True, text=True, timeout=60)
            assert_one_line_refusal(self, r, spec, "is not a regular file")

    def test_a_subfolder_that_is_a_link_is_set_aside_and_its_target_left_alone(self):
        out, victim = self.out, os.path.join(self.d, "victim")
        self.assertEqual(geomint("study", self.spec, "--out", out, "--quiet").returncode, 0)
        os.mkdir(victim)
        for name in ("stale.csv.tmp.999999999", "bad.json"):  # a dead run's file, a bad record
            open(os.path.join(victim, name), "w").close()
        for sub in ("series", "cases"):
            shutil.rmtree(os.path.join(out, sub))
            os.symlink(victim, os.path.join(out, sub))
        r = geomint("study", self.spec, "--out", out, "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("a link where a folder belongs", r.stderr)
        self.assertEqual(sorted(os.listdir(victim)), ["bad.json", "stale.csv.tmp.999999999"])
        for sub in ("series", "cases"):
            self.assertTrue(os.path.islink(os.path.join(out, "damaged", sub)), sub)
            self.assertFalse(os.path.islink(os.path.join(out, sub)), sub)

    def test_writes_results_resumes_and_reports(self):
        r = geomint("study", self.spec, "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        for name in ("manifest.json", "cases.csv", "orders.csv", "verdicts.csv", "reproduction.csv"):
            self.assertTrue(os.path.exists(os.path.join(self.out, name)), name)
        # The summary line says what verdicts.csv says.
        with open(os.path.join(self.out, "verdicts.csv")) as f:
            states = [v["state"] for v in csv.DictReader(f)]
        self.assertIn(f"verdicts: {states.count('kept')} kept, {states.count('broken')} broken, "
                      f"{states.count('not_checked')} not checked, {states.count('explained')} "
                      "explained", r.stderr)
        self.assertGreater(states.count("kept"), 0)
        with open(os.path.join(self.out, "cases.csv")) as f:
            cases = list(csv.DictReader(f))
        self.assertEqual(len(cases), 6)
        self.assertEqual(list(cases[0])[:19], [
            "study", "model", "integrator", "h", "rtol", "atol", "T", "status", "steps",
            "rejected", "f_evals", "cpu_s", "global_err", "energy_err_max", "energy_err_mean",
            "energy_drift_per_time", "momentum_err_max", "manifold_err_max", "tangency_err_max"])
        self.assertTrue(all(c["status"] == "ok" for c in cases))
        for c in cases:
            self.assertTrue(os.path.exists(os.path.join(self.out, "series", c["case_id"] + ".csv")))
        again = geomint("study", self.spec, "--out", self.out)
        self.assertIn("6 resumed", again.stderr)
        report = os.path.join(self.d, "report")
        r = geomint("report", self.out, "--out", report)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(os.path.join(report, "index.html")))

    def test_malformed_spec_names_file_place_and_line(self):
        with tempfile.TemporaryDirectory() as d:
            spec = os.path.join(d, "bad.yaml")
            with open(spec, "w") as f:
                f.write(SPEC.replace("    T: 0.5\n", "    T: 0.5\n    horizon: 3\n"))
            r = geomint("study", spec, "--out", os.path.join(d, "out"))
            self.assertEqual(r.returncode, 2)
            self.assertIn(f"{spec}:8:5: experiments[0]: experiment 'pendulum': unknown key 'horizon'", r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "out")))


USER_METHODS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "order",
                            "user_methods.yaml")


class UserMethods(unittest.TestCase):
    """Methods a spec defines by their coefficients (studies/README.md, `methods:`)."""

    def test_study_fits_each_user_method_to_its_declared_order(self):
        with tempfile.TemporaryDirectory() as d:
            r = geomint("study", USER_METHODS, "--out", d)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(d, "orders.csv")) as f:
                orders = {(row["experiment"], row["integrator"]): row for row in csv.DictReader(f)}
            self.assertEqual(len(orders), 14, orders.keys())  # 7 methods, 2 models
            for name, row in orders.items():
                self.assertLess(abs(float(row["fitted_order"]) - int(row["nominal_order"])), 0.3,
                                f"{name}: {row}")

    def test_a_tableau_short_of_its_order_is_refused_with_the_condition_named(self):
        with tempfile.TemporaryDirectory() as d:
            spec = os.path.join(d, "bad.yaml")
            with open(USER_METHODS) as f:
                text = f.read()
            with open(spec, "w") as f:  # Kutta 3/8 with b_4 = 1/8 + 1e-3: sum b_i = 1.001
                f.write(text.replace("b: [1/8, 3/8, 3/8, 1/8]", "b: [1/8, 3/8, 3/8, 0.126]"))
            r = geomint("study", spec, "--out", os.path.join(d, "out"))
            self.assertEqual(r.returncode, 2, r.stderr)
            line = text.splitlines().index("  - name: rk38_user") + 1  # the method's entry
            self.assertIn(f"{spec}:{line}:5: methods[0]: method 'rk38_user': order condition "
                          "'sum b_i = 1' (order 1, tree τ) violated: 1.001", r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


class ExitStatusContract(unittest.TestCase):
    """README "Exit status": 0 done; 2 bad input, one line, nothing written or truncated; 3 an
    integration failure, one line with type, time and step, the output up to it kept; 4 an
    I/O failure, named."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "keep.csv")
        with open(self.out, "w") as f:
            f.write("precious\n")

    def tearDown(self):
        self.dir.cleanup()

    def run_refused(self, status, *args):
        r = geomint(*args)
        self.assertEqual(r.returncode, status, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        with open(self.out) as f:
            self.assertEqual(f.read(), "precious\n", args)
        return lines[0]

    def test_infeasible_runs_are_refused_with_the_estimate_before_anything_is_written(self):
        base = ["run", "--model", "spherical_pendulum", "--integrator", "rk4", "--out", self.out]
        line = self.run_refused(2, *base, "--h", "1e-300", "--T", "1")
        self.assertIn("1e+300 steps, more than the cap of 100000000 (max_steps)", line)
        self.assertIn("more than the cap", self.run_refused(2, *base, "--h", "1e-320"))
        self.assertIn("--T must be a positive finite number", self.run_refused(2, *base, "--h", "0.1", "--T", "inf"))
        self.assertIn("more than the cap", self.run_refused(2, *base, "--h", "1e-3", "--T", "1e300"))
        self.assertIn("more than --max-output 1000",
                      self.run_refused(2, *base, "--h", "1e-3", "--max-output", "1000"))
        self.assertIn("more than the cap of 100 ", self.run_refused(2, *base, "--h", "1e-3", "--max-steps", "100"))

    def test_settings_a_method_does_not_use_and_values_outside_their_domain_are_refused(self):
        base = ["run", "--model", "spherical_pendulum", "--out", self.out]
        self.assertIn("rtol and atol do not apply",
                      self.run_refused(2, *base, "--integrator", "rk4", "--h", "0.1", "--rtol", "1e-6"))
        self.assertIn("h does not apply", self.run_refused(2, *base, "--integrator", "dopri45", "--h", "0.1"))
        self.assertIn("--rtol must be a finite number",
                      self.run_refused(2, *base, "--integrator", "dopri45", "--rtol", "nan"))
        self.assertIn("rtol must be from 100 machine epsilons",
                      self.run_refused(2, *base, "--integrator", "odeint_dopri5", "--rtol", "1e-300"))
        self.assertIn("cannot be projected", self.run_refused(
            2, *base, "--integrator", "rk4", "--h", "0.1", "--ic", "q1=0,0,0", "--project"))
        self.assertIn("not a finite number", self.run_refused(
            2, *base, "--integrator", "rk4", "--h", "0.1", "--ic", "q1=nan,0,1"))

    def test_parser_errors_are_one_line_and_status_2(self):
        for args in (["run", "--integrator", "rk4"], ["run", "--model", "m", "--integrator", "rk4", "--h", "abc"],
                     ["run", "--bogus"], [], ["frobnicate"], ["run", "--model", "m", "--h"]):
            r = geomint(*args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, (args, r.stderr))

    def test_a_failed_write_is_status_4_and_names_the_path(self):
        r = geomint("run", "--model", "spherical_pendulum", "--integrator", "rk4", "--h", "0.1",
                    "--out", "/dev/full")
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertIn("cannot write /dev/full: No space left on device", r.stderr)
        r = geomint("run", "--model", "spherical_pendulum", "--integrator", "rk4", "--h", "0.1",
                    "--out", self.dir.name)
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertIn("it is a directory", r.stderr)

    def test_an_adaptive_run_stops_at_the_step_cap_with_status_3_and_keeps_its_output(self):
        r = geomint("run", "--model", "spherical_pendulum", "--integrator", "dopri45", "--rtol", "1e-10",
                    "--max-steps", "10", "--out", self.out)
        self.assertEqual(r.returncode, 3, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertRegex(lines[0], r"TooMuchWork at t = [0-9.e-]+: .*cap of 10 steps.*\(step 11;")
        with open(self.out) as f:
            # the header, t = 0 and ten steps of four output points each (ode45's Refine)
            self.assertEqual(len(f.readlines()), 1 + 1 + 4 * 10)

    def test_a_report_of_damaged_results_is_one_line_and_status_2(self):
        with tempfile.TemporaryDirectory() as d:
            spec = os.path.join(d, "tiny.yaml")
            with open(spec, "w") as f:
                f.write(SPEC)
            out = os.path.join(d, "out")
            self.assertEqual(geomint("study", spec, "--out", out, "--quiet").returncode, 0)
            manifest = os.path.join(out, "manifest.json")
            with open(manifest) as f:
                m = json.load(f)
            m["experiments"][0]["plots"] = 3
            with open(manifest, "w") as f:
                json.dump(m, f)
            r = geomint("report", out, "--out", os.path.join(d, "report"))
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn("'plots' has the wrong type", r.stderr)
            self.assertNotIn("Traceback", r.stderr)


if __name__ == "__main__":
    GEOMINT = sys.argv.pop(1)
    unittest.main(verbosity=2)
