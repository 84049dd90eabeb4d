"""The gates' comparison rules (gates/perf_gate.py, gates/accuracy_gate.py), on made-up numbers:
what passes, what fails, and that a failure names its case; and that both gates fail closed on
a committed file that is missing, unreadable or malformed."""

import contextlib
import io
import json
import os
import tempfile
import unittest

import accuracy_gate
import committed_file
import perf_gate


def work(instructions, f_evals=100):
    return {"instructions": instructions, "f_evals": f_evals}


class PerfCompare(unittest.TestCase):
    def test_an_increase_above_three_percent_fails_naming_the_workload(self):
        _, failures, _ = perf_gate.compare({"a/rk4": work(1000), "b/rk4": work(1000)},
                                           {"a/rk4": work(1031), "b/rk4": work(1029)})
        self.assertEqual(len(failures), 1)
        self.assertTrue(failures[0].startswith("a/rk4: +3.10%"), failures[0])

    def test_a_decrease_is_a_reminder_not_a_failure(self):
        _, failures, reminders = perf_gate.compare({"a": work(1000), "b": work(1000)},
                                                   {"a": work(980), "b": work(995)})
        self.assertEqual(failures, [])
        self.assertEqual(reminders, ["a: -2.00% instructions"])

    def test_a_workload_no_longer_run_or_not_in_the_baseline_fails(self):
        _, failures, reminders = perf_gate.compare({"old": work(1000), "kept": work(1000)},
                                                   {"new": work(1000), "kept": work(1000)})
        self.assertEqual(reminders, [])
        self.assertEqual(len(failures), 2, failures)
        self.assertTrue(failures[0].startswith("new: run but not in the baseline"), failures[0])
        self.assertTrue(failures[1].startswith("old: in the baseline but no longer run"),
                        failures[1])
        self.assertIn("scripts/perf-gate --update", failures[1])

    def test_a_workload_that_failed_to_run_is_left_to_its_error(self):
        rows, failures, _ = perf_gate.compare({"a": work(1000)}, {}, failed={"a": "a: crashed"})
        self.assertEqual(failures, [])
        self.assertEqual(rows[0][4], "failed to run")

    def test_other_work_is_compared_per_evaluation(self):
        rows, failures, _ = perf_gate.compare({"a": work(1000, 100)}, {"a": work(1100, 110)})
        self.assertEqual(failures, [])
        self.assertAlmostEqual(rows[0][3], 0.0)
        self.assertIn("f_evals 100 -> 110", rows[0][4])

    def test_no_evaluation_count_compares_the_totals(self):
        _, failures, _ = perf_gate.compare({"study": work(1000, 0)}, {"study": work(1040, 0)})
        self.assertEqual(len(failures), 1)


def case(kind, value):
    return {"kind": kind, "value": value}


class AccuracyRules(unittest.TestCase):
    def test_a_drift_case_passes_at_most_its_limit(self):
        self.assertIsNone(accuracy_gate.check("at_most", 0.05, 0.004))
        self.assertIsNone(accuracy_gate.check("at_most", 0.05, 0.05))
        self.assertEqual(accuracy_gate.check("at_most", 0.05, 0.0501),
                         "0.0501, above the 0.05 allowed")

    def test_a_drift_answer_keeps_the_limit_and_the_measured_value(self):
        self.assertEqual(accuracy_gate.answer_from(
            {"kind": "at_most", "value": 0.0040970958, "limit": 0.05}),
            {"kind": "at_most", "limit": 0.05, "measured": 0.004097})

    def test_answers_keep_four_digits_counts_and_a_power_of_ten_ceiling(self):
        self.assertEqual(accuracy_gate.answer_for("float", 4.0123456), 4.012)
        self.assertEqual(accuracy_gate.answer_for("float", -3.14159e-7), -3.142e-7)
        self.assertEqual(accuracy_gate.answer_for("count", 171.0), 171)
        self.assertEqual(accuracy_gate.answer_for("ceiling", 3.3e-15), 1e-13)
        self.assertEqual(accuracy_gate.answer_for("ceiling", 1e-15), 1e-14)
        self.assertEqual(accuracy_gate.answer_for("ceiling", 0.0), 1e-14)

    def test_a_float_passes_within_one_unit_of_its_fourth_digit(self):
        for value in (4.012, 4.0111, 4.0129):
            self.assertIsNone(accuracy_gate.check("float", 4.012, value), value)
        self.assertIsNone(accuracy_gate.check("float", -3.142e-7, -3.1429e-7))
        self.assertIsNotNone(accuracy_gate.check("float", -3.142e-7, -3.1431e-7))
        self.assertIsNotNone(accuracy_gate.check("float", -3.142e-7, 3.142e-7))
        self.assertIsNotNone(accuracy_gate.check("float", 4.012, 4.0132))

    def test_a_rounding_sized_change_always_passes(self):
        # The worst case: a value just below a rounding boundary moves just across it.
        answer = accuracy_gate.answer_for("float", 4.01249999)
        self.assertIsNone(accuracy_gate.check("float", answer, 4.01250001))
        self.assertIsNone(accuracy_gate.check("float", answer, 4.0120 - 0.00049))

    def test_a_count_passes_within_ten_percent(self):
        self.assertIsNone(accuracy_gate.check("count", 100, 110))
        self.assertIsNone(accuracy_gate.check("count", 100, 90))
        self.assertIsNotNone(accuracy_gate.check("count", 100, 111))

    def test_a_ceiling_holds_the_magnitude_only(self):
        self.assertIsNone(accuracy_gate.check("ceiling", 1e-13, 9e-14))
        self.assertIsNone(accuracy_gate.check("ceiling", 1e-13, -9e-14))
        self.assertIsNotNone(accuracy_gate.check("ceiling", 1e-13, 2e-13))


class AccuracyCompare(unittest.TestCase):
    MEASURED = {"dsp/rk4/order": case("float", 4.01234),
                "dsp/dopri45/steps": case("count", 171.0),
                "dsp/rkmk4/unit_length_err_max": case("ceiling", 2.2e-15),
                "sp/vi/energy_drift_over_band": {"kind": "at_most", "value": 0.004,
                                                 "limit": 0.05}}

    def measured(self, **changes):
        measured = json.loads(json.dumps(self.MEASURED))
        measured.update(changes)
        return {name: c for name, c in measured.items() if c is not None}

    def test_the_answers_of_a_run_pass_that_run(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        _, failures = accuracy_gate.compare(answers, self.MEASURED)
        self.assertEqual(failures, [])

    def test_a_perturbed_answer_fails_with_the_case_named_in_one_line(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        answers["dsp/rk4/order"]["value"] = 4.015
        _, failures = accuracy_gate.compare(answers, self.MEASURED)
        self.assertEqual(failures,
                         ["dsp/rk4/order: 4.01234, answer 4.015 (allowed 4.014 .. 4.016)"])

    def test_a_drift_above_its_limit_fails_whatever_was_measured_at_the_update(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        answers["sp/vi/energy_drift_over_band"]["measured"] = 0.06
        drifting = {"kind": "at_most", "value": 0.53, "limit": 0.05}
        _, failures = accuracy_gate.compare(answers, self.measured(
            **{"sp/vi/energy_drift_over_band": drifting}))
        self.assertEqual(failures, ["sp/vi/energy_drift_over_band: 0.53, above the 0.05 allowed"])
        _, failures = accuracy_gate.compare(answers, self.MEASURED)
        self.assertEqual(failures, [])

    def test_a_changed_limit_fails(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        looser = {"kind": "at_most", "value": 0.004, "limit": 0.5}
        _, failures = accuracy_gate.compare(answers, self.measured(
            **{"sp/vi/energy_drift_over_band": looser}))
        self.assertEqual(failures,
                         ["sp/vi/energy_drift_over_band: its limit changed from 0.05 to 0.5"])

    def test_a_case_no_longer_computed_or_not_in_the_answers_fails(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        measured = self.measured(**{"dsp/dopri45/steps": None,
                                    "dsp/cf4/order": case("float", 4.0)})
        _, failures = accuracy_gate.compare(answers, measured)
        self.assertEqual(len(failures), 2, failures)
        self.assertTrue(failures[0].startswith("dsp/cf4/order: computed but not in the answers"),
                        failures[0])
        self.assertTrue(failures[1].startswith("dsp/dopri45/steps: in the answers but no longer "
                                               "computed"), failures[1])
        self.assertIn("scripts/accuracy-gate --update", failures[1])

    def test_a_changed_kind_fails(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        measured = self.measured(**{"dsp/rkmk4/unit_length_err_max": case("float", 2.2e-15)})
        _, failures = accuracy_gate.compare(answers, measured)
        self.assertEqual(len(failures), 1)
        self.assertIn("kind changed from ceiling to float", failures[0])


class CommittedFileFailsClosed(unittest.TestCase):
    """Each gate's main() on a committed file that is not usable: exit status 1 and one line
    that names the file and what is wrong, before anything is built or run (--build points
    nowhere, so getting past the file would end differently)."""

    GATES = [(perf_gate, "--baseline", "workloads",
              {"a/rk4": {"f_evals": 80, "instructions": 1000}}),
             (accuracy_gate, "--answers", "cases",
              {"a/rk4/order": {"kind": "float", "value": 4.012},
               "a/vi/energy_drift_over_band": {"kind": "at_most", "limit": 0.05,
                                               "measured": 0.004}})]

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="geomint-test-gates-")
        self.addCleanup(self.dir.cleanup)

    def path(self, content=None, raw=None):
        path = os.path.join(self.dir.name, "committed.json")
        if content is not None:
            raw = json.dumps(content).encode()
        if raw is not None:
            with open(path, "wb") as f:
                f.write(raw)
        return path

    def fails_with(self, gate, option, path, why):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = gate.main([option, path, "--build", os.path.join(self.dir.name, "nowhere")])
        self.assertEqual(status, 1)
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn(f"FAIL {committed_file.shown(path)}: ", lines[0])
        self.assertIn(why, lines[0])

    def test_a_missing_file_fails(self):
        for gate, option, _, _ in self.GATES:
            with self.subTest(gate.__name__):
                self.fails_with(gate, option, self.path(), ": missing")

    def test_an_unreadable_file_fails(self):
        for gate, option, _, _ in self.GATES:
            with self.subTest(gate.__name__):
                self.fails_with(gate, option, self.dir.name, "unreadable (Is a directory)")
                self.fails_with(gate, option, self.path(raw=b'{"\xff": 1}'),
                                "unreadable (not UTF-8 text)")

    def test_a_file_that_is_not_json_or_has_no_entries_fails(self):
        for gate, option, key, entries in self.GATES:
            with self.subTest(gate.__name__):
                text = json.dumps({key: entries})
                self.fails_with(gate, option, self.path(raw=text[:-1].encode()),
                                "malformed: not JSON")
                self.fails_with(gate, option, self.path([entries]), f'no "{key}" object')
                self.fails_with(gate, option, self.path({"comment": "x", key: []}),
                                f'no "{key}" object')
                self.fails_with(gate, option, self.path({key: {}}), f'"{key}" is empty')

    def test_a_malformed_entry_fails_naming_it(self):
        bad = [(perf_gate, "--baseline", "workloads",
                {"instructions": "1000", "f_evals": 80}, '"instructions" is "1000"'),
               (perf_gate, "--baseline", "workloads", {"instructions": 1000}, '"f_evals" is null'),
               (accuracy_gate, "--answers", "cases", {"kind": "floaty", "value": 1.0},
                'kind "floaty" is none of'),
               (accuracy_gate, "--answers", "cases", {"kind": "float", "value": "4.0"},
                '"value" is "4.0"'),
               (accuracy_gate, "--answers", "cases", {"kind": "at_most", "measured": 0.004},
                '"limit" is null'),
               (accuracy_gate, "--answers", "cases", {"kind": "count", "value": float("nan")},
                '"value" is NaN')]
        for gate, option, key, entry, why in bad:
            with self.subTest(why):
                self.fails_with(gate, option, self.path({key: {"x/y": entry}}),
                                f'malformed: "x/y": {why}')

    def test_a_well_formed_file_is_read(self):
        for gate, _, key, entries in self.GATES:
            with self.subTest(gate.__name__):
                self.assertEqual(committed_file.read(self.path({"comment": "c", key: entries}),
                                                     key, gate.check_entry), entries)

    def test_an_update_does_not_need_the_file(self):
        # It gets past the file and stops at the missing build instead.
        for gate, option, _, _ in self.GATES:
            with self.subTest(gate.__name__), contextlib.redirect_stdout(io.StringIO()) as out:
                with self.assertRaises(SystemExit) as stop:
                    gate.main([option, self.path(), "--update",
                               "--build", os.path.join(self.dir.name, "nowhere")])
                self.assertIn("missing", out.getvalue())
                self.assertNotEqual(stop.exception.code, 0)


if __name__ == "__main__":
    unittest.main()
