"""The exit-status contract's bad-input case, as the CLI tests check it: status 2 and exactly
one line on stderr, starting `geomint: ` and naming what is wrong (README, "Exit status and
limits")."""
import subprocess
import unittest


def assert_one_line_refusal(test: unittest.TestCase, r: subprocess.CompletedProcess, *phrases: str) -> None:
    test.assertEqual(r.returncode, 2, r.stderr)
    lines = r.stderr.strip().splitlines()
    test.assertEqual(len(lines), 1, r.stderr)
    test.assertTrue(lines[0].startswith("geomint: "), lines[0])
    for p in phrases:
        test.assertIn(p, lines[0])
