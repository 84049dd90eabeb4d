"""geomint.run against an exact solution, an order of convergence, an independent RK4, and the
exit-status contract's errors as Python exceptions."""

import math
import signal
import subprocess
import sys
import time
import unittest

import numpy as np

import geomint
from test_models import conical_pendulum, rk4


def adaptive_integrator_on(model):
    """An adaptive catalogue integrator that runs on the model."""
    adaptive = {i["name"] for i in geomint.integrators() if i["adaptive"]}
    return next(name for name in geomint.Model(model).integrators if name in adaptive)


class Series(unittest.TestCase):
    def test_the_series_has_every_output_point(self):
        m = geomint.Model("heavy_top", preset="slowed")
        r = geomint.run("heavy_top", "rk4", preset="slowed", h=0.01, T=0.5)
        self.assertEqual((r.model, r.preset, r.integrator, r.status), ("heavy_top", "slowed", "rk4", "ok"))
        self.assertEqual(r.t.shape, (51,))
        np.testing.assert_allclose(np.diff(r.t), 0.01, rtol=1e-9)
        self.assertEqual(r.state.shape, (51, m.dimension))
        self.assertEqual(r.columns, m.columns)
        np.testing.assert_array_equal(r.state[0], m.initial_state)
        np.testing.assert_array_equal(r.state[-1], r.final_state)
        self.assertEqual(list(r.invariants), [d["name"] for d in m.invariant_declarations])
        self.assertTrue(all(v.shape == (51,) for v in r.invariants.values()))
        self.assertEqual(r.work["steps"], 50)
        self.assertEqual(r.work["f_evals"], 200)  # four evaluations a step

    def test_every_keeps_every_nth_point_and_the_last(self):
        r = geomint.run("spherical_pendulum", "rk4", h=0.01, T=1.05, every=10)
        self.assertEqual(len(r.t), 12)  # 0, 0.1, ..., 1.0 and 1.05
        np.testing.assert_allclose(r.t[:11], np.arange(11) * 0.1, atol=1e-12)
        self.assertAlmostEqual(r.t[-1], 1.05, delta=1e-12)

    def test_a_model_object_runs_with_its_preset_and_parameters(self):
        m = geomint.Model("spherical_pendulum", preset="conical", params={"m": 3.0})
        r = geomint.run(m, "rk4", h=0.01, T=0.1)
        self.assertEqual(r.preset, "conical")
        np.testing.assert_array_equal(r.state[0], m.initial_state)
        # The conical pendulum is exact for any mass (models/conical_pendulum.hpp).
        np.testing.assert_allclose(r.final_state, conical_pendulum(r.t[-1]), atol=1e-8)
        with self.assertRaises(ValueError):
            geomint.run(m, "rk4", h=0.01, T=0.1, preset="swing")

    def test_initial_blocks_and_projection(self):
        r = geomint.run("spherical_pendulum", "rk4", h=0.01, T=0.1, initial={"q1": [0, 0.6, 0.8], "w1": [1, 0, 0]})
        np.testing.assert_array_equal(r.state[0], [0, 0.6, 0.8, 1, 0, 0])
        with self.assertRaises(ValueError) as e:
            geomint.run("spherical_pendulum", "rk4", h=0.01, T=0.1, initial={"q1": [0, 0.6, 0.9]})
        self.assertIn("the initial state is off the manifold (unit_1 = ", str(e.exception))
        r = geomint.run("spherical_pendulum", "rk4", h=0.01, T=0.1, initial={"q1": [0, 0.6, 0.9]}, project=True)
        self.assertAlmostEqual(np.linalg.norm(r.state[0][:3]), 1.0, delta=1e-15)
        self.assertIn("projected", r.notes)


class Convergence(unittest.TestCase):
    def test_rk4_converges_at_order_4_to_the_conical_pendulum(self):
        hs = [0.04, 0.02, 0.01, 0.005]
        errors = [np.linalg.norm(geomint.run("spherical_pendulum", "rk4", preset="conical", h=h, T=1.0).final_state
                                 - conical_pendulum(1.0)) for h in hs]
        slope = np.polyfit(np.log(hs), np.log(errors), 1)[0]
        self.assertAlmostEqual(slope, 4.0, delta=0.2, msg=f"errors {errors}")

    def test_the_engines_rk4_is_an_independent_rk4(self):
        m = geomint.Model("double_spherical_pendulum")
        r = geomint.run(m, "rk4", h=0.01, T=1.0)
        np.testing.assert_allclose(r.final_state, rk4(m.rhs, m.initial_state, 0.01, 100), rtol=0, atol=1e-12)

    def test_a_lie_group_method_converges_to_the_rigid_bodys_exact_solution(self):
        m = geomint.Model("free_rigid_body", preset="near_separatrix")
        exact = m.exact_solution(m.initial_state, 2.0)
        hs = [0.04, 0.02, 0.01]
        errors = [np.linalg.norm(geomint.run(m, "rkmk4", h=h, T=2.0).final_state - exact) for h in hs]
        slope = np.polyfit(np.log(hs), np.log(errors), 1)[0]
        self.assertAlmostEqual(slope, 4.0, delta=0.2, msg=f"errors {errors}")

    def test_an_adaptive_run_meets_its_tolerance(self):
        m = geomint.Model("free_rigid_body", preset="elliptic")
        name = adaptive_integrator_on("free_rigid_body")
        exact = m.exact_solution(m.initial_state, 1.0)
        loose = geomint.run(m, name, rtol=1e-4, atol=1e-6, T=1.0)
        tight = geomint.run(m, name, rtol=1e-9, atol=1e-11, T=1.0)
        self.assertAlmostEqual(tight.t[-1], 1.0, delta=1e-12)
        self.assertLess(np.linalg.norm(tight.final_state - exact), 1e-6)
        self.assertLess(np.linalg.norm(tight.final_state - exact), np.linalg.norm(loose.final_state - exact))
        self.assertGreater(tight.work["steps"], loose.work["steps"])


class Failures(unittest.TestCase):
    def test_too_much_work_is_a_typed_failure_with_the_points_up_to_it(self):
        name = adaptive_integrator_on("spherical_pendulum")
        with self.assertRaises(geomint.TooMuchWork) as e:
            geomint.run("spherical_pendulum", name, rtol=1e-10, atol=1e-12, T=100.0, max_steps=20)
        failure = e.exception
        self.assertIsInstance(failure, geomint.IntegrationFailure)
        self.assertIsInstance(failure, RuntimeError)
        self.assertEqual(failure.kind, "TooMuchWork")
        self.assertTrue(0 < failure.time < 100.0, failure.time)
        self.assertEqual(failure.step, 21)
        self.assertTrue(str(failure).startswith("TooMuchWork at t = "), str(failure))
        partial = failure.partial
        self.assertEqual(partial.status, "TooMuchWork")
        self.assertGreater(len(partial.t), 1)
        self.assertLessEqual(partial.t[-1], failure.time)

    def test_the_output_cap_stops_an_adaptive_run_and_refuses_a_fixed_step_one(self):
        name = adaptive_integrator_on("spherical_pendulum")
        with self.assertRaises(geomint.TooMuchWork) as e:
            geomint.run("spherical_pendulum", name, T=100.0, max_output=10000)
        self.assertIn("max_output", str(e.exception))
        with self.assertRaises(ValueError) as e:
            geomint.run("spherical_pendulum", "rk4", h=1e-3, T=100.0, max_output=10000)
        self.assertIn("more than max_output", str(e.exception))

    def test_a_diverging_run_fails_typed(self):
        # Explicit Euler-like growth: RK2 at a step far beyond its stability on the fast top.
        with self.assertRaises(geomint.IntegrationFailure) as e:
            geomint.run("heavy_top", "rk2", preset="celledoni2021", h=0.5, T=1000.0)
        self.assertIn(e.exception.kind, ("LeftManifold", "NonFinite"))
        self.assertIs(type(e.exception), getattr(geomint, e.exception.kind))


class Interruption(unittest.TestCase):
    def test_ctrl_c_stops_a_run(self):
        # 10^8 steps of RK4 take 15 s on a 2-core VM (2026-11-28); SIGINT after the run has
        # started must end it with KeyboardInterrupt within a second or two.
        child = subprocess.Popen(
            [sys.executable, "-c",
             "import geomint\n"
             "print('started', flush=True)\n"
             "try:\n"
             "    geomint.run('spherical_pendulum', 'rk4', h=1e-6, T=100, every=10**6)\n"
             "    print('finished')\n"
             "except KeyboardInterrupt:\n"
             "    print('interrupted')\n"],
            stdout=subprocess.PIPE, text=True)
        self.assertEqual(child.stdout.readline().strip(), "started")
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        start = time.monotonic()
        out, _ = child.communicate(timeout=60)
        self.assertEqual(out.strip(), "interrupted")
        self.assertLess(time.monotonic() - start, 3.0)


class Refusals(unittest.TestCase):
    def test_bad_input_is_a_value_error_with_geomints_message(self):
        cases = [
            (("spherical_pendulum", "rk5"), dict(h=0.01), "unknown integrator 'rk5' (see geomint list integrators)"),
            (("spherical_pendulum", "rk4"), dict(), "rk4 is a fixed-step method: give a step size h"),
            (("spherical_pendulum", "rk4"), dict(h=0.01, rtol=1e-6),
             "rk4 is a fixed-step method: rtol and atol do not apply (give h)"),
            (("spherical_pendulum", "rk4"), dict(h=0.01, T=-1.0), "T must be a positive finite number"),
            (("spherical_pendulum", "rk4"), dict(h=math.inf), "h must be a finite number"),
            (("spherical_pendulum", "rk4"), dict(h=1e-9, T=10.0), "rk4: h = 1e-09 over T = 10 is 1e+10 steps, more than the cap"),
            (("spherical_pendulum", "rk4"), dict(h=0.01, preset="upside_down"), "spherical_pendulum: unknown preset 'upside_down'"),
            (("spherical_pendulum", "rk4"), dict(h=0.01, params={"l": 0}), "spherical_pendulum: parameter l = 0 is outside its domain"),
            (("spherical_pendulum", "rk4"), dict(h=0.01, every=0), "every must be a whole number from 1"),
            (("free_rigid_body", "vi_explicit"), dict(h=0.01), "n/a: free_rigid_body has no "),
            ((42, "rk4"), dict(h=0.01), "model: expected a name (str) or a geomint.Model"),
        ]
        for args, kwargs, message in cases:
            with self.assertRaises(ValueError, msg=(args, kwargs)) as e:
                geomint.run(*args, **kwargs)
            self.assertTrue(str(e.exception).startswith(message), (message, str(e.exception)))
            self.assertNotIn("\n", str(e.exception))


if __name__ == "__main__":
    unittest.main()
