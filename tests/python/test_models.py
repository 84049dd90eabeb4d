"""geomint.Model against what it must agree with: the model registry, an exact solution, a
conservation law, the manifold, and a second view of the same vector field."""

import math
import os
import unittest

import numpy as np

import geomint

SOURCE = os.environ.get("GEOMINT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def registry_models():
    """The model names of catalogue/model_registry.txt, in its order."""
    with open(os.path.join(SOURCE, "catalogue", "model_registry.txt"), encoding="utf-8") as f:
        stems = [line.split()[0] for line in f if line[:1].isalpha()]
    return stems


def conical_pendulum(t, theta=math.pi / 3, l=1.0, g=9.81):
    """The conical pendulum (LLM's convention, gravity along +e3): the bob at angle theta from
    the downward vertical circling it at W = sqrt(g / (l cos theta)); w = W (e3 - cos theta q)."""
    rate = math.sqrt(g / (l * math.cos(theta)))
    q = np.array([math.sin(theta) * math.cos(rate * t), math.sin(theta) * math.sin(rate * t), math.cos(theta)])
    w = rate * (np.array([0.0, 0.0, 1.0]) - math.cos(theta) * q)
    return np.concatenate([q, w])


def rk4(f, y, h, steps):
    """The classical Runge-Kutta method, written here independently of geomint's."""
    t = 0.0
    for _ in range(steps):
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += h
    return y


def defects(model, y):
    """The manifold defects of y, by name."""
    kinds = {d["name"]: d["kind"] for d in model.invariant_declarations}
    return {k: v for k, v in model.invariants(y).items() if kinds[k] == "manifold_defect"}


class Registry(unittest.TestCase):
    def test_models_are_the_registry(self):
        self.assertEqual(geomint.models(), registry_models())

    def test_every_model_builds_with_its_presets(self):
        for name in geomint.models():
            for preset in geomint.Model(name).presets:
                m = geomint.Model(name, preset=preset["name"])
                y0 = m.initial_state
                self.assertEqual(y0.shape, (m.dimension,), (name, preset["name"]))
                self.assertEqual(len(m.columns), m.dimension)
                self.assertEqual(sum(b["size"] for b in m.blocks), m.dimension)
                # Every preset starts on the manifold (a run refuses a state off it beyond 1e-12).
                for k, v in defects(m, y0).items():
                    self.assertLessEqual(abs(v), 1e-12, (name, preset["name"], k))
                self.assertEqual(m.rhs(0.0, y0).shape, y0.shape)
                self.assertIn("AmbientOde", m.views)

    def test_integrators_list_the_catalogue(self):
        names = [i["name"] for i in geomint.integrators()]
        self.assertIn("rk4", names)
        self.assertEqual(len(names), len(set(names)))
        rk4_entry = next(i for i in geomint.integrators() if i["name"] == "rk4")
        self.assertEqual((rk4_entry["order"], rk4_entry["needs"], rk4_entry["adaptive"]), (4, "AmbientOde", False))


class Layout(unittest.TestCase):
    def test_spherical_pendulum_conical_preset(self):
        m = geomint.Model("spherical_pendulum", preset="conical")
        self.assertEqual(m.columns, ["q1_x", "q1_y", "q1_z", "w1_x", "w1_y", "w1_z"])
        self.assertEqual([(b["name"], b["manifold"], b["offset"], b["size"]) for b in m.blocks],
                         [("q1", "S2", 0, 3), ("w1", "T_qS2", 3, 3)])
        self.assertEqual((m.params["l"], m.params["g"]), (1.0, 9.81))
        np.testing.assert_allclose(m.initial_state, conical_pendulum(0.0), rtol=0, atol=1e-15)

    def test_parameters_carry_their_domains(self):
        m = geomint.Model("spherical_pendulum", params={"l": 2.5})
        by_name = {p["name"]: p for p in m.parameters}
        self.assertEqual(by_name["l"]["value"], 2.5)
        self.assertEqual(by_name["l"]["domain"], "positive numbers")


class VectorField(unittest.TestCase):
    def test_numpy_rk4_on_rhs_converges_at_order_4_to_the_conical_pendulum(self):
        m = geomint.Model("spherical_pendulum", preset="conical")
        T = 1.0
        steps = [25, 50, 100, 200]
        errors = [np.linalg.norm(rk4(m.rhs, m.initial_state, T / n, n) - conical_pendulum(T)) for n in steps]
        slope = np.polyfit(np.log([T / n for n in steps]), np.log(errors), 1)[0]
        self.assertAlmostEqual(slope, 4.0, delta=0.2, msg=f"errors {errors}")

    def test_heavy_top_rhs_is_the_derivative_of_a_short_run(self):
        # One RK4 step of h: (y(h) - y(0)) / h = F(0, y0) + h/2 y''(0) + O(h^2), so the
        # difference from rhs is small and shrinks tenfold with h.
        m = geomint.Model("heavy_top", preset="celledoni2021")
        y0 = m.initial_state
        f0 = m.rhs(0.0, y0)
        misses = []
        for h in (1e-5, 1e-6):
            r = geomint.run("heavy_top", "rk4", preset="celledoni2021", h=h, T=h)
            self.assertEqual(len(r.t), 2)
            misses.append(np.linalg.norm((r.final_state - y0) / h - f0))
        self.assertLess(misses[1], 1e-4 * np.linalg.norm(f0), misses)
        self.assertAlmostEqual(misses[0] / misses[1], 10.0, delta=1.0, msg=misses)

    def test_rhs_depends_on_the_parameters(self):
        # q' = w x q holds for any g; the acceleration w' has a part proportional to g.
        y0 = geomint.Model("spherical_pendulum", preset="conical").initial_state
        f1 = geomint.Model("spherical_pendulum", preset="swing").rhs(0.0, y0)
        f2 = geomint.Model("spherical_pendulum", preset="swing", params={"g": 2 * 9.81}).rhs(0.0, y0)
        np.testing.assert_allclose(f2[:3], f1[:3], rtol=1e-15)
        self.assertGreater(np.linalg.norm(f2[3:] - f1[3:]), 1.0)


class LieGroupView(unittest.TestCase):
    def test_the_generator_acts_as_the_vector_field(self):
        # The view's defining property (Celledoni Section 2): d/ds exp(s f(t, y)) . y at s = 0
        # is F(t, y); the action and the generator are written apart from rhs.
        for name in ("spherical_pendulum", "free_rigid_body", "heavy_top", "heavy_top_lie_poisson",
                     "double_spherical_pendulum"):
            m = geomint.Model(name)
            self.assertIn("LieGroupOde", m.views)
            y = m.initial_state
            xi = m.generator(0.0, y)
            self.assertEqual(xi.shape, (m.algebra_dimension,))
            s = 1e-6
            derivative = (m.exp_act(s * xi, y) - m.exp_act(-s * xi, y)) / (2 * s)
            f = m.rhs(0.0, y)
            self.assertLess(np.linalg.norm(derivative - f), 1e-7 * max(1.0, np.linalg.norm(f)), name)

    def test_dexpinv_and_bracket_obey_their_identities(self):
        m = geomint.Model("heavy_top")
        rng = np.random.default_rng(33)  # fixed seed: a replayable input
        a, b = rng.normal(size=(2, m.algebra_dimension))
        np.testing.assert_allclose(m.dexpinv(np.zeros_like(a), b), b, rtol=1e-14)  # dexpinv_0 = id
        np.testing.assert_allclose(m.dexpinv(a, a), a, rtol=1e-13)  # ad_a a = 0
        np.testing.assert_allclose(m.bracket(a, b), -m.bracket(b, a), rtol=1e-14)
        # dexpinv_a(b) = b - [a, b]/2 + O(|a|^2 |b|): the series' first terms (Celledoni (8)).
        eps = 1e-4
        np.testing.assert_allclose(m.dexpinv(eps * a, b), b - eps / 2 * m.bracket(a, b), atol=1e-7)

    def test_the_action_stays_on_the_manifold(self):
        m = geomint.Model("heavy_top")
        y = m.exp_act(np.full(m.algebra_dimension, 0.7), m.initial_state)
        for k, v in defects(m, y).items():
            self.assertLess(abs(v), 1e-14, k)


class Invariants(unittest.TestCase):
    def test_the_rigid_bodys_exact_solution_conserves_its_invariants(self):
        for preset in ("elliptic", "near_separatrix"):
            m = geomint.Model("free_rigid_body", preset=preset)
            self.assertTrue(m.has_exact_solution)
            y0 = m.initial_state
            conserved = [d["name"] for d in m.invariant_declarations if d["conserved"]]
            self.assertIn("energy", conserved)
            self.assertIn("casimir", conserved)
            start = m.invariants(y0)
            for t in (0.5, 3.0, 20.0):
                y = m.exact_solution(y0, t)
                self.assertGreater(np.linalg.norm(y - y0), 1e-3, "the body turns")
                now = m.invariants(y)
                for k in conserved:
                    self.assertAlmostEqual(now[k], start[k], delta=1e-12 * max(1.0, abs(start[k])),
                                           msg=f"{preset} {k} at t = {t}")

    def test_the_rigid_bodys_exact_solution_solves_eulers_equations(self):
        m = geomint.Model("free_rigid_body", preset="near_separatrix")
        y0, d = m.initial_state, 1e-5
        for t in (0.3, 2.0, 7.0):
            central = (m.exact_solution(y0, t + d) - m.exact_solution(y0, t - d)) / (2 * d)
            f = m.rhs(t, m.exact_solution(y0, t))
            self.assertLess(np.linalg.norm(central - f), 1e-7 * np.linalg.norm(f), f"t = {t}")

    def test_project_puts_a_perturbed_state_back_on_the_manifold(self):
        rng = np.random.default_rng(7)  # fixed seed: a replayable input
        for name in ("heavy_top", "spherical_pendulum", "double_spherical_pendulum", "quadrotors_payload"):
            m = geomint.Model(name)
            y = m.initial_state + 1e-3 * rng.normal(size=m.dimension)
            self.assertGreater(max(abs(v) for v in defects(m, y).values()), 1e-5, name)
            p = m.project(y)
            for k, v in defects(m, p).items():
                self.assertLess(abs(v), 1e-12, f"{name} {k}")
            self.assertLess(np.linalg.norm(p - y), 1e-2, name)  # the nearby point, not any point


class Refusals(unittest.TestCase):
    def test_an_unknown_model_names_the_known_ones(self):
        with self.assertRaises(ValueError) as e:
            geomint.Model("heavy_bottom")
        self.assertEqual(str(e.exception), "unknown model 'heavy_bottom' (known: " + ", ".join(registry_models()) + ")")

    def test_an_unknown_preset_or_parameter_or_a_value_outside_its_domain(self):
        cases = [
            (dict(preset="wobble"), "heavy_top: unknown preset 'wobble' (known: "),
            (dict(params={"mass": 1.0}), "heavy_top: unknown parameter 'mass' (known: "),
            (dict(params={"M": -1.0}), "heavy_top: parameter M = -1 is outside its domain (positive numbers)"),
            (dict(params={"M": float("nan")}), "heavy_top: parameter M = nan is outside its domain"),
            (dict(params={"M": "heavy"}), "params: M = 'heavy' is not a number"),
        ]
        for kwargs, message in cases:
            with self.assertRaises(ValueError, msg=kwargs) as e:
                geomint.Model("heavy_top", **kwargs)
            self.assertTrue(str(e.exception).startswith(message), str(e.exception))
            self.assertNotIn("\n", str(e.exception))

    def test_a_state_of_the_wrong_size(self):
        m = geomint.Model("heavy_top")
        with self.assertRaises(ValueError) as e:
            m.rhs(0.0, np.zeros(5))
        self.assertEqual(str(e.exception), "heavy_top: the state has 12 entries, got 5")
        with self.assertRaises(ValueError) as e:
            m.exp_act(np.zeros(2), m.initial_state)
        self.assertEqual(str(e.exception), "heavy_top: an element of the Lie algebra has 6 entries, got 2")
        with self.assertRaises(ValueError):
            m.project(np.zeros((2, 6)))
        with self.assertRaises(ValueError):
            m.invariants("no state")

    def test_a_missing_view_is_named(self):
        m = geomint.Model("heavy_top_quadratic")
        self.assertNotIn("LieGroupOde", m.views)
        for call in (lambda: m.generator(0.0, m.initial_state), lambda: m.algebra_dimension,
                     lambda: m.exp_act(np.zeros(6), m.initial_state)):
            with self.assertRaises(geomint.MissingView) as e:
                call()
            self.assertIsInstance(e.exception, NotImplementedError)
            self.assertEqual(str(e.exception),
                             "heavy_top_quadratic has no LieGroupOde view (it offers AmbientOde, CotangentLieGroup)")
        p = geomint.Model("spherical_pendulum", preset="conical")
        self.assertFalse(p.has_exact_solution)
        with self.assertRaises(geomint.MissingView) as e:
            p.exact_solution(p.initial_state, 1.0)
        self.assertEqual(str(e.exception), "spherical_pendulum has no exact solution")


if __name__ == "__main__":
    unittest.main()
