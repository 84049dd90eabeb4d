"""Label `reproduction`: every number in a reproduction note is its row's.

Usage: test_reproduction_notes.py PATH_TO_GEOMINT SOURCE_DIR. Runs studies/lee2009.yaml (LLM's
examples as the paper ran them, about ten seconds) and checks reproduction.csv: each note's
numbers are, to the four significant digits a note prints, a number of its published entry (the
published figure, ours, the ratio of each metric) or of its case in cases.csv (a setting, a
metric, a count). A note typed by hand that drifts from the result fails here; the spec reader
refuses a typed number outright (studies/note_template.hpp), so a note can only quote.
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest

GEOMINT = SOURCE = ""
# A number that starts a word (ode45 and e3 are names): 0.744, 1.5e-14, 30000, -2.
NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def printed(value: float) -> set[float]:
    """The numbers a note can print for a value: four significant digits (a ratio near a band
    edge more, up to all), or a whole count."""
    return {float(f"{value:.{digits}g}") for digits in range(4, 18)} | {float(f"{value:.0f}")}


class ReproductionNotes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        out = os.path.join(cls.tmp.name, "lee2009")
        r = subprocess.run([GEOMINT, "study", os.path.join(SOURCE, "studies", "lee2009.yaml"), "--out", out,
                            "--quiet"], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        with open(os.path.join(out, "reproduction.csv"), newline="") as f:
            cls.rows = list(csv.DictReader(f))
        with open(os.path.join(out, "cases.csv"), newline="") as f:
            cls.cases = {c["case_id"]: c for c in csv.DictReader(f)}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def allowed(self, entry: list[dict]) -> set[float]:
        values = set()
        for row in entry:
            for column in ("published", "ours", "ratio"):
                values |= printed(float(row[column]))
        for text in self.cases[entry[0]["case_id"]].values():
            try:
                number = float(text)
            except ValueError:
                continue
            if math.isfinite(number):
                values |= printed(number)
        return values

    def test_the_study_has_notes_with_numbers(self):
        self.assertGreater(len(self.rows), 20)
        self.assertGreater(sum(bool(NUMBER.search(r["note"])) for r in self.rows), 20)

    def test_every_number_in_a_note_is_its_rows(self):
        entries: dict[tuple, list[dict]] = {}
        for row in self.rows:  # a published entry: one case, one note, a row per metric
            entries.setdefault((row["experiment"], row["case_id"], row["role"], row["note"]), []).append(row)
        for (experiment, _, _, note), entry in entries.items():
            allowed = self.allowed(entry)
            for match in NUMBER.finditer(note):
                with self.subTest(experiment=experiment, number=match.group()):
                    self.assertIn(float(match.group()), allowed, f"'{match.group()}' in: {note}")

    def test_a_planted_number_is_caught(self):
        entry = [r for r in self.rows if r["experiment"] == "ex2"][:1]
        self.assertNotIn(0.94, self.allowed(entry))  # what a stale, typed note could say


if __name__ == "__main__":
    GEOMINT = sys.argv.pop(1)
    SOURCE = sys.argv.pop(1)
    unittest.main(verbosity=2)
