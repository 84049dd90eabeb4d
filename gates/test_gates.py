"""The gates' comparison rules (gates/perf_gate.py, gates/accuracy_gate.py), on made-up numbers:
what passes, what fails, and that a failure names its case."""

import unittest

import accuracy_gate
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

    def test_missing_and_extra_workloads_are_reminders(self):
        _, failures, reminders = perf_gate.compare({"old": work(1000)}, {"new": work(1000)})
        self.assertEqual(failures, [])
        self.assertEqual(sorted(reminders), ["new: not in the baseline",
                                             "old: in the baseline but no longer run"])

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
                "dsp/rkmk4/unit_length_err_max": case("ceiling", 2.2e-15)}

    def test_the_answers_of_a_run_pass_that_run(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        _, failures, reminders = accuracy_gate.compare(answers, self.MEASURED)
        self.assertEqual((failures, reminders), ([], []))

    def test_a_perturbed_answer_fails_with_the_case_named_in_one_line(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        answers["dsp/rk4/order"]["value"] = 4.015
        _, failures, _ = accuracy_gate.compare(answers, self.MEASURED)
        self.assertEqual(failures,
                         ["dsp/rk4/order: 4.01234, answer 4.015 (allowed 4.014 .. 4.016)"])

    def test_a_case_no_longer_computed_fails_and_a_new_one_is_a_reminder(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        measured = dict(self.MEASURED)
        del measured["dsp/dopri45/steps"]
        measured["dsp/cf4/order"] = case("float", 4.0)
        _, failures, reminders = accuracy_gate.compare(answers, measured)
        self.assertEqual(failures, ["dsp/dopri45/steps: no longer computed"])
        self.assertEqual(reminders, ["dsp/cf4/order: not in the answers"])

    def test_a_changed_kind_fails(self):
        answers = accuracy_gate.answers_from(self.MEASURED)
        measured = dict(self.MEASURED)
        measured["dsp/rkmk4/unit_length_err_max"] = case("float", 2.2e-15)
        _, failures, _ = accuracy_gate.compare(answers, measured)
        self.assertEqual(len(failures), 1)
        self.assertIn("kind changed from ceiling to float", failures[0])


if __name__ == "__main__":
    unittest.main()
