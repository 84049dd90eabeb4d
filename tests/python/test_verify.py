"""geomint.verify on step functions written against geomint.Model (step_functions.py), on
command templates and on a built-in: verdicts from geomint's own reference (an exact solution
or Fehlberg 7(8)), not from the integrator's numbers; a wrong declaration broken, naming the
promise; a failing step function typed."""

import os
import sys
import tempfile
import unittest

import geomint
import step_functions

SOURCE = os.environ["GEOMINT_SOURCE_DIR"]
MODELS = ["spherical_pendulum", "free_rigid_body"]


class Verify(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def out(self, name):
        return os.path.join(self.dir.name, name)

    def order_verdicts(self, result):
        return {v["model"]: v for v in result["verdicts"] if v["promise"] == "order"}

    def test_heun_on_the_model_rhs_keeps_order_two(self):
        r = geomint.verify(step_functions.heun, order=2, models=MODELS, out=self.out("heun"))
        self.assertEqual((r["integrator"], r["failed"], r["broken"]), ("heun", 0, []))
        order = self.order_verdicts(r)
        self.assertEqual(set(order), set(MODELS))
        for v in order.values():
            self.assertEqual(v["state"], "kept", v)
            self.assertAlmostEqual(v["value"], 2.0, delta=0.2)

    def test_euler_declared_second_order_is_broken(self):
        r = geomint.verify(step_functions.euler, order=2, models=["free_rigid_body"], out=self.out("euler"))
        self.assertEqual([(v["model"], v["promise"], v["why"]) for v in r["broken"]],
                         [("free_rigid_body", "order", "below_nominal")])
        self.assertAlmostEqual(r["broken"][0]["value"], 1.0, delta=0.2)

    def test_lie_euler_stays_on_the_manifold_as_declared(self):
        with self.assertRaisesRegex(ValueError, "'lie_euler' is the name of a built-in integrator"):
            geomint.verify(step_functions.lie_euler, order=1, models=["free_rigid_body"], out=self.out("taken"))
        r = geomint.verify(step_functions.lie_euler, order=1, stays_on_manifold=True, models=["free_rigid_body"],
                           name="lie_euler_numpy", out=self.out("lie_euler"))
        states = {v["promise"]: v["state"] for v in r["verdicts"]}
        self.assertEqual(states, {"order": "kept", "manifold": "kept"})
        # The same declaration on Euler, which leaves the orbit |Pi| = L: broken.
        r = geomint.verify(step_functions.euler, order=1, stays_on_manifold=True, models=["free_rigid_body"],
                           out=self.out("euler_manifold"))
        self.assertEqual([v["promise"] for v in r["broken"]], ["manifold"])

    def test_a_failing_step_function_is_a_typed_failure(self):
        r = geomint.verify(step_functions.fails, order=1, models=["free_rigid_body"], h=[0.1], T=1,
                           out=self.out("fails"))
        self.assertEqual(r["failed"], 1)
        self.assertIn("CommandFailed", r["first_failure"])
        self.assertIn("this step function fails on purpose", r["first_failure"])
        r = geomint.verify(step_functions.not_finite, order=1, models=["free_rigid_body"], h=[0.1], T=1,
                           out=self.out("not_finite"))
        self.assertIn("NonFinite", r["first_failure"])

    def test_a_command_template_and_a_built_in(self):
        heun = os.path.join(SOURCE, "docs", "examples", "external", "heun.py")
        r = geomint.verify(f"{sys.executable} {heun} --init {{init}} --out {{out}} --work {{work}}", order=2,
                           models=["free_rigid_body"], out=self.out("command"))
        self.assertEqual(self.order_verdicts(r)["free_rigid_body"]["state"], "kept")
        r = geomint.verify("rk4", models=["free_rigid_body"], out=self.out("rk4"))
        self.assertEqual(self.order_verdicts(r)["free_rigid_body"]["state"], "kept")

    def test_bad_input_is_a_value_error(self):
        with self.assertRaisesRegex(ValueError, "must be defined at the top level of a file"):
            geomint.verify(lambda model, t, y, h: y, order=1, models=["free_rigid_body"], out=self.out("lambda"))
        with self.assertRaisesRegex(ValueError, "give order"):
            geomint.verify(step_functions.heun, models=["free_rigid_body"], out=self.out("no_order"))
        with self.assertRaisesRegex(ValueError, "unknown model"):
            geomint.verify(step_functions.heun, order=2, models=["no_such_model"], out=self.out("no_model"))


if __name__ == "__main__":
    unittest.main()
