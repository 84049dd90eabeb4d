"""Label `cli`: `geomint evoke` (pattern evocation, docs/pattern-evocation.md) as a user drives it.

Usage: test_evoke.py PATH_TO_GEOMINT. On a trajectory `geomint run` writes, checks the result
files and figures, that the conical pendulum's best frame turns at its rate, that a rerun with
fewer best frames removes the others, that bad input gets one line and exit status 2 with
nothing written, and that an unwritable folder gets exit status 4 with the path named.
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

from one_line_refusal import assert_one_line_refusal

GEOMINT = ""
RATE = math.sqrt(9.81 / math.cos(math.pi / 3))  # the conical preset's rate W (models/conical_pendulum.hpp)


def geomint(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([GEOMINT, *args], capture_output=True, text=True, timeout=600)


def rows(path: str) -> list[list[str]]:
    with open(path, newline="") as f:
        return list(csv.reader(f))


class Evoke(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.cone = os.path.join(cls.dir.name, "cone.csv")
        cls.swing = os.path.join(cls.dir.name, "swing.csv")
        for preset, out in (("conical", cls.cone), ("swing", cls.swing)):
            r = geomint("run", "--model", "spherical_pendulum", "--preset", preset, "--integrator",
                        "vi_explicit", "--h", "0.01", "--T", "20", "--out", out)
            assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def evoke(self, trajectory: str, out: str, *args: str) -> subprocess.CompletedProcess:
        return geomint("evoke", "--trajectory", trajectory, "--out", out, *args)

    def test_the_conical_pendulum_is_still_in_the_frame_turning_at_its_rate(self):
        out = os.path.join(self.dir.name, "cone-evoke")
        r = self.evoke(self.cone, out, "--xi-min", str(RATE - 1), "--xi-max", str(RATE + 1),
                       "--count", "81", "--lag-min", "1", "--lag-max", "5")
        self.assertEqual(r.returncode, 0, r.stderr)
        scores = rows(os.path.join(out, "scores.csv"))
        self.assertEqual(scores[0], ["xi", "score", "lag"])
        self.assertEqual(len(scores), 1 + 81)
        with open(os.path.join(out, "evocation.json")) as f:
            e = json.load(f)
        self.assertEqual((e["lag_min"], e["lag_max"]), (1.0, 5.0))
        self.assertEqual(e["bodies"], ["q1"])
        self.assertIn("R_z(-xi t)", e["score_definition"])
        self.assertAlmostEqual(e["critical_frequency"], RATE, delta=2e-3)  # O(h^2)
        best = e["best"][0]
        # Refined off the scan's rates to the integrated RE's own rate W + O(h^2).
        self.assertAlmostEqual(best["xi"], e["critical_frequency"], delta=1e-5)
        self.assertLess(best["score"], 1e-4)
        frame = rows(os.path.join(out, best["frame"]))
        self.assertEqual(frame[0], ["t", "q1_x", "q1_y", "q1_z"])
        self.assertEqual(len(frame), 1 + 2001)
        first = [float(v) for v in frame[1][1:]]
        for row in frame[1:]:  # a fixed point, up to the VI's O(h^2) shape error
            self.assertLess(math.dist([float(v) for v in row[1:]], first), 1e-3)
        for png in ("scores.png", os.path.basename(best["frame"])[:-4] + ".png"):
            with open(os.path.join(out, "figures", png), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", png)

    def test_a_best_lag_on_a_bound_and_no_closing_frame_are_warned_of(self):
        # The swing closes after its period (about 2 s), outside these lags: its gap grows
        # with the lag from the lower bound, and no frame closes.
        out = os.path.join(self.dir.name, "swing-short-lags")
        r = self.evoke(self.swing, out, "--xi-min", "-6", "--xi-max", "6", "--count", "121",
                       "--lag-min", "0.2", "--lag-max", "0.5", "--best", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "evocation.json")) as f:
            e = json.load(f)
        self.assertFalse(e["closes"])
        self.assertEqual(e["closing_score"], 0.05)
        self.assertGreater(e["best"][0]["score"], 0.05)
        self.assertTrue(e["best"][0]["lag_on_bound"])
        self.assertAlmostEqual(e["best"][0]["lag"], 0.2)
        self.assertTrue(e["warnings"][0].startswith("no frame closes: the best score"), e)
        self.assertIn("sits on a bound of the lag range [0.2, 0.5]", e["warnings"][1])
        warned = [line for line in r.stderr.splitlines() if line.startswith("geomint evoke: warning: ")]
        self.assertEqual([w[len("geomint evoke: warning: "):] for w in warned], e["warnings"][:len(warned)])
        self.assertEqual(len(warned), len(e["warnings"]))

    def test_a_rerun_keeps_only_its_own_frames(self):
        out = os.path.join(self.dir.name, "swing-evoke")
        scan = ["--xi-min", "-6", "--xi-max", "6", "--count", "241"]
        r = self.evoke(self.swing, out, *scan, "--best", "4")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(os.listdir(os.path.join(out, "frames"))), 4)
        with open(os.path.join(out, "evocation.json")) as f:
            scores = [b["score"] for b in json.load(f)["best"]]
        self.assertEqual(scores, sorted(scores))
        r = self.evoke(self.swing, out, *scan, "--best", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([n[:2] for n in os.listdir(os.path.join(out, "frames"))], ["1-"])
        self.assertEqual(sorted(n[:2] for n in os.listdir(os.path.join(out, "figures"))), ["1-", "sc"])

    def expect_refused(self, args: list[str], *phrases: str, trajectory: str | None = None):
        out = os.path.join(self.dir.name, "refused")
        r = self.evoke(trajectory or self.cone, out, *args)
        assert_one_line_refusal(self, r, *phrases)
        self.assertFalse(os.path.exists(out))

    def write(self, name: str, text: str) -> str:
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_bad_input_gets_one_line_and_status_2_and_nothing_is_written(self):
        scan = ["--xi-min", "0", "--xi-max", "8", "--count", "17"]
        self.expect_refused(["--xi-min", "0", "--xi-max", "8", "--count", "1"], "--count")
        self.expect_refused(["--xi-min", "3", "--xi-max", "2", "--count", "5"], "--xi-min must be below --xi-max")
        self.expect_refused(["--xi-min", "nan", "--xi-max", "2", "--count", "5"], "--xi-min")
        self.expect_refused([*scan, "--best", "0"], "--best")
        self.expect_refused([*scan, "--lag-min", "-1"], "--lag-min")
        self.expect_refused([*scan, "--lag-min", "3", "--lag-max", "2"], "--lag-min must be below --lag-max")
        self.expect_refused([*scan, "--lag-max", "20"], "cone.csv", "not shorter than the trajectory's time span")
        self.expect_refused(["--count", "5", "--xi-max", "1"], "--xi-min")  # a required option
        self.expect_refused(scan, "no-such.csv does not exist", trajectory=os.path.join(self.dir.name, "no-such.csv"))
        no_q = self.write("no_q.csv", "t,energy\n0,1\n0.1,1\n0.2,1\n0.3,1\n")
        self.expect_refused(scan, "no_q.csv:1: no position columns q<i>_x", trajectory=no_q)
        half = self.write("half.csv", "t,q1_x,q1_y\n0,1,0\n")
        self.expect_refused(scan, "half.csv:1: the column q1_z is missing", trajectory=half)
        nan = self.write("nan.csv", "t,q1_x,q1_y,q1_z\n0,1,0,0\n0.1,nan,0,0\n0.2,1,0,0\n")
        self.expect_refused(scan, "nan.csv:3: column q1_x: 'nan' is not a finite number", trajectory=nan)
        ragged = self.write("ragged.csv", "t,q1_x,q1_y,q1_z\n0,1,0,0\n0.1,1,0\n")
        self.expect_refused(scan, "ragged.csv:3: 3 fields, the header has 4", trajectory=ragged)
        uneven = self.write("uneven.csv", "t,q1_x,q1_y,q1_z\n" + "".join(
            f"{t},{math.cos(t)},{math.sin(t)},0\n" for t in (0, 0.1, 0.2, 0.35, 0.4, 0.5, 0.6)))
        self.expect_refused(scan, "uneven.csv: times are not uniformly spaced", trajectory=uneven)
        axis = self.write("axis.csv", "t,q1_x,q1_y,q1_z\n" + "".join(f"{k / 10},0,0,1\n" for k in range(20)))
        self.expect_refused(scan, "never leave the e3 axis", trajectory=axis)
        fifo = os.path.join(self.dir.name, "fifo.csv")
        os.mkfifo(fifo)  # nobody writes it: reading it would block for ever
        self.expect_refused(scan, "fifo.csv is not a regular file", trajectory=fifo)
        self.expect_refused(scan, "/dev/zero is not a regular file", trajectory="/dev/zero")

    def test_an_unwritable_folder_is_status_4_with_the_path_named(self):
        blocker = self.write("blocker", "a file where the folder's parent should be\n")
        out = os.path.join(blocker, "evoke")
        r = self.evoke(self.cone, out, "--xi-min", "0", "--xi-max", "8", "--count", "5")
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn(blocker, r.stderr)


if __name__ == "__main__":
    GEOMINT = sys.argv.pop(1)
    unittest.main(verbosity=2)
