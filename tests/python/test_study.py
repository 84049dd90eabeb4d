"""geomint.study: a small spec against the exact solution of the free rigid body, its cases' errors
against the order theorem, its resumption, and its refusals."""

import os
import tempfile
import unittest

import numpy as np

import geomint

SPEC = """\
name: python_study
title: RK2 and RK4 on the free rigid body against its exact solution
description: The Python module's study test (tests/python/test_study.py).
experiments:
  - name: convergence
    title: Global error at T = 1
    model: free_rigid_body
    preset: elliptic
    T: 1
    reference: exact
    series: false
    runs:
      - integrators: [rk2, rk4]
        h: [0.04, 0.02, 0.01, 0.005]
"""


class Study(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.spec = os.path.join(self.dir.name, "python_study.yaml")
        with open(self.spec, "w", encoding="utf-8") as f:
            f.write(SPEC)
        self.out = os.path.join(self.dir.name, "out")

    def tearDown(self):
        self.dir.cleanup()

    def test_the_cases_converge_at_their_orders_and_the_study_resumes(self):
        result = geomint.study(self.spec, self.out, jobs=2, progress=False)
        self.assertEqual(result["folder"], self.out)
        self.assertEqual(result["summary"]["cases"], 8)
        self.assertEqual(result["summary"]["failed"], 0)
        cases = result["cases"]
        self.assertEqual(len(cases["case_id"]), 8)
        self.assertIsInstance(cases["global_err"], np.ndarray)
        self.assertEqual(sorted(set(cases["integrator"])), ["rk2", "rk4"])
        for name, order in (("rk2", 2), ("rk4", 4)):
            rows = [i for i, n in enumerate(cases["integrator"]) if n == name]
            h, err = cases["h"][rows], cases["global_err"][rows]
            slope = np.polyfit(np.log(h), np.log(err), 1)[0]
            self.assertAlmostEqual(slope, order, delta=0.2, msg=f"{name}: h {h}, errors {err}")
        verdicts = result["verdicts"]
        order_kept = {(i, s) for i, p, s in zip(verdicts["integrator"], verdicts["promise"], verdicts["state"])
                      if p == "order"}
        self.assertEqual(order_kept, {("rk2", "kept"), ("rk4", "kept")})
        again = geomint.study(self.spec, self.out, progress=False)
        self.assertEqual(again["summary"]["resumed"], 8)
        np.testing.assert_array_equal(again["cases"]["global_err"], cases["global_err"])

    def test_a_malformed_spec_names_its_line_and_column(self):
        with open(self.spec, "w", encoding="utf-8") as f:
            f.write(SPEC.replace("T: 1\n", "T: -1\n"))
        with self.assertRaises(ValueError) as e:
            geomint.study(self.spec, self.out, progress=False)
        self.assertTrue(str(e.exception).startswith(self.spec + ":9:8: "), str(e.exception))
        self.assertFalse(os.path.exists(self.out), "nothing is written")

    def test_an_unwritable_folder_is_an_os_error(self):
        blocker = os.path.join(self.dir.name, "a_file")
        open(blocker, "w").close()
        with self.assertRaises(OSError) as e:
            geomint.study(self.spec, os.path.join(blocker, "out"), progress=False)
        self.assertIn(blocker, str(e.exception))


if __name__ == "__main__":
    unittest.main()
