"""ctest accuracy_gate_trips_on_drift (label `gate`): the accuracy gate's drift rule catches a
method that is no longer symplectic.

Runs the accuracy gate twice on the committed answers: as it is, and with
`--break-symplecticity`, which makes the symplectic methods of the drift runs dissipative
(accuracy_cases.cpp, Dissipative). Passes when the broken run fails on exactly the drift cases
(kind at_most) beyond whatever the plain run fails on, each above its limit, and the plain run
fails on none of them.

    python3 -B gates/test_drift_trip.py --build build/release
"""

import argparse
import json
import os
import subprocess
import sys

GATES = os.path.dirname(os.path.abspath(__file__))
FAIL = "accuracy-gate: FAIL "


def gate(build, *options):
    """Exit status, output, and the failures as {case: why}."""
    proc = subprocess.run([sys.executable, "-B", os.path.join(GATES, "accuracy_gate.py"),
                           "--build", build, *options], capture_output=True, text=True)
    failures = dict(line[len(FAIL):].split(": ", 1) for line in proc.stdout.splitlines()
                    if line.startswith(FAIL))
    return proc.returncode, proc.stdout + proc.stderr, failures


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", required=True, help="the Release build directory")
    args = parser.parse_args(argv)

    with open(os.path.join(GATES, "accuracy_answers.json")) as f:
        answers = json.load(f)["cases"]
    drift = {name for name, a in answers.items() if a["kind"] == "at_most"}
    problems = [] if drift else ["the answers have no drift case (kind at_most)"]

    _, _, plain = gate(args.build)
    status, output, broken = gate(args.build, "--break-symplecticity")
    print(output, end="")
    caught = set(broken) - set(plain)
    if status != 1:
        problems.append(f"the broken run exited with status {status}, not 1")
    if caught != drift:
        problems.append("the broken run's new failures are not the drift cases: missed "
                        f"{sorted(drift - caught)}, also failed {sorted(caught - drift)}")
    if drift & set(plain):
        problems.append(f"drift cases fail without the break: {sorted(drift & set(plain))}")
    if set(plain) - set(broken):
        problems.append(f"the break made failures pass: {sorted(set(plain) - set(broken))}")
    for name in sorted(drift & caught):
        if "above the" not in broken[name]:
            problems.append(f"{name}: failed for another reason: {broken[name]}")
    for line in problems:
        print(f"test_drift_trip: FAIL {line}")
    if not problems:
        print(f"test_drift_trip: passed: the gate failed on exactly the {len(drift)} drift "
              f"cases with symplecticity broken, on none of them without")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
