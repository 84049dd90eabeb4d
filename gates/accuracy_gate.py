"""The accuracy gate: the cases of gates/accuracy_cases.cpp against the committed answers
gates/accuracy_answers.json (gates/README.md).

    scripts/accuracy-gate                    # compare (exit status 1 on a regression, case named)
    scripts/accuracy-gate --update           # rewrite the answers from this build
    scripts/accuracy-gate --robustness 1e-12 # do the answers survive a perturbation of the
                                             # initial states? (ctest accuracy_cases_robust)

The rule for each kind of number (accuracy_cases.cpp says which is which, and why):
  float    the answer is the value rounded to 4 significant digits; a value passes when it is
           within one unit of the answer's 4th significant digit (answer 4.012 takes
           4.011 .. 4.013), so a change of half a unit or less always passes and one of more
           than one and a half units always fails, whichever way the answer was rounded;
  count    within 10 % of the answer;
  ceiling  at most the answer, written as the power of ten at least ten times the value
           (round-off-level numbers: only their magnitude is held);
  at_most  at most the answer's limit, a rule of the case itself (a symplectic method's drift
           over the run at most 5 % of its error band); the answer also keeps the value
           measured at the update, which is not compared.

The gate fails closed: answers that are missing, unreadable or malformed fail it, and so does a
case computed but not in the answers or in the answers but no longer computed (adding or
removing one needs an update, committed). `--break-symplecticity` (not in --help) runs the
cases with the symplectic methods of the drift runs made dissipative; the gate must then fail
on exactly the drift cases (ctest accuracy_gate_trips_on_drift, test_drift_trip.py).
"""

import argparse
import json
import math
import os
import subprocess
import sys

import committed_file

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANSWERS = os.path.join(REPO, "gates", "accuracy_answers.json")
COUNT_TOLERANCE = 0.10
SMALLEST_CEILING = 1e-15  # for a value of exactly zero
KINDS = ("float", "count", "ceiling", "at_most")

ANSWERS_COMMENT = ("Answers of the cases of gates/accuracy_cases.cpp (rules in "
                   "gates/accuracy_gate.py); rewrite with scripts/accuracy-gate --update.")


def unit_in_4th_digit(x):
    return 10.0 ** (math.floor(math.log10(abs(x))) - 3)


def answer_for(kind, value):
    """The answer committed for a measured value (of a kind other than at_most)."""
    if kind == "float":
        return float(f"{value:.4g}")
    if kind == "count":
        return int(round(value))
    if kind == "ceiling":
        return 10.0 ** (math.ceil(math.log10(max(abs(value), SMALLEST_CEILING))) + 1)
    raise ValueError(f"unknown kind {kind!r}")


def check_entry(entry):
    """None for a well-formed committed answer, else what is wrong with it."""
    kind = entry.get("kind")
    if kind not in KINDS:
        return f"kind {json.dumps(kind)} is none of {', '.join(KINDS)}"
    for key in ("limit", "measured") if kind == "at_most" else ("value",):
        if not committed_file.is_number(entry.get(key)):
            return f"{json.dumps(key)} is {json.dumps(entry.get(key))}, not a finite number"
    return None


def check(kind, answer, value):
    """None when `value` passes against `answer` (of at_most: the limit), else why not (one
    line)."""
    if kind == "float":
        tolerance = unit_in_4th_digit(answer) if answer != 0 else 0.0
        if abs(value - answer) <= tolerance * (1 + 1e-9):  # 1e-9: the answer's decimal rounding
            return None
        low, high = answer - tolerance, answer + tolerance
        return f"{value:.6g}, answer {answer:.4g} (allowed {low:.4g} .. {high:.4g})"
    if kind == "count":
        if abs(value - answer) <= COUNT_TOLERANCE * abs(answer):
            return None
        return f"{value:g}, answer {answer:g} (allowed within {COUNT_TOLERANCE:.0%})"
    if kind == "ceiling":
        if abs(value) <= answer:
            return None
        return f"{value:.3g}, above its ceiling {answer:.0e}"
    if kind == "at_most":
        if value <= answer:
            return None
        return f"{value:.4g}, above the {answer:.4g} allowed"
    raise ValueError(f"unknown kind {kind!r}")


def compare(answers, measured):
    """Rows (case, kind, answer, value, failure or None) and the failures, each a one-line
    string naming the case. `answers` maps a case to its committed answer ({"kind", "value"},
    of at_most {"kind", "limit", "measured"}), `measured` to {"kind", "value"} (of at_most also
    "limit") as computed."""
    rows, failures = [], []
    for name in sorted(set(answers) | set(measured)):
        answer, now = answers.get(name), measured.get(name)
        if answer is None:
            why = ("computed but not in the answers (a new case needs "
                   "`scripts/accuracy-gate --update`, committed)")
            failures.append(f"{name}: {why}")
            rows.append((name, now["kind"], None, now["value"], why))
            continue
        bound = answer["limit"] if answer["kind"] == "at_most" else answer["value"]
        if now is None:
            why = ("in the answers but no longer computed (a removal needs "
                   "`scripts/accuracy-gate --update`, committed)")
            failures.append(f"{name}: {why}")
            rows.append((name, answer["kind"], bound, None, why))
            continue
        if answer["kind"] != now["kind"]:
            why = f"its kind changed from {answer['kind']} to {now['kind']}"
        elif answer["kind"] == "at_most" and now["limit"] != answer["limit"]:
            why = f"its limit changed from {answer['limit']:g} to {now['limit']:g}"
        else:
            why = check(answer["kind"], bound, now["value"])
        if why:
            failures.append(f"{name}: {why}")
        rows.append((name, now["kind"], bound, now["value"], why))
    return rows, failures


def answer_from(case):
    """The answer committed for a computed case."""
    if case["kind"] == "at_most":
        return {"kind": "at_most", "limit": case["limit"],
                "measured": float(f"{case['value']:.4g}")}
    return {"kind": case["kind"], "value": answer_for(case["kind"], case["value"])}


def answers_from(measured):
    return {name: answer_from(c) for name, c in measured.items()}


def run_cases(program, options=()):
    command = [program, *options]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"accuracy-gate: {' '.join(command)} failed (exit status {proc.returncode}): "
                 + proc.stderr.strip())
    return {c.pop("case"): c for c in json.loads(proc.stdout)["cases"]}


def print_table(rows):
    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'kind':<7}  {'answer':>10}  {'value':>12}")
    for name, kind, answer, value, why in rows:
        answer_text = ("-" if answer is None else
                       ("<= " if kind == "at_most" else "") + format(answer, ".4g"))
        value_text = "-" if value is None else format(value, ".6g")
        print(f"{name:<{width}}  {kind:<7}  {answer_text:>10}  {value_text:>12}  "
              f"{'FAIL' if why else 'ok'}")


def main(argv):
    parser = argparse.ArgumentParser(
        prog="accuracy-gate", description="Orders, energy drift, manifold errors and work "
        "counts of a fixed set of cases against the committed answers (gates/README.md).")
    parser.add_argument("--build", default=os.path.join(REPO, "build", "release"),
                        help="the Release build directory (default: build/release)")
    parser.add_argument("--answers", default=ANSWERS, help="default: gates/accuracy_answers.json")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true", help="rewrite the answers")
    mode.add_argument("--robustness", type=float, metavar="E",
                      help="compare a run with every initial angular velocity scaled by 1 + E "
                      "against this build's own answers (the committed ones are not read)")
    # The drift rule's own test (test_drift_trip.py), not for use: the symplectic methods of
    # the drift runs made dissipative, against the committed answers.
    mode.add_argument("--break-symplecticity", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    # The committed file first (the robustness check compares with this build's own answers
    # and does not read it): without it there is nothing to compare with.
    answers = {}
    if args.robustness is None:
        try:
            answers = committed_file.read(args.answers, "cases", check_entry)
        except committed_file.Unusable as e:
            if not args.update:
                print(f"accuracy-gate: FAIL {e}")
                return 1
            print(f"accuracy-gate: {e}; writing new answers")
    program = os.path.join(args.build, "gates", "accuracy_cases")
    if not os.path.exists(program):
        sys.exit(f"accuracy-gate: {program} is missing; build it: "
                 f"cmake --build {args.build} --target accuracy_cases")
    measured = run_cases(program,
                         ["--break-symplecticity"] if args.break_symplecticity else [])
    if args.robustness is not None:
        answers = answers_from(measured)
        measured = run_cases(program, ["--perturb", repr(args.robustness)])
    rows, failures = compare(answers, measured)
    print_table(rows)
    if args.update:
        committed_file.write(args.answers, ANSWERS_COMMENT, "cases", answers_from(measured))
        print(f"accuracy-gate: wrote {committed_file.shown(args.answers)} ({len(measured)} cases)")
        return 0
    for line in failures:
        print(f"accuracy-gate: FAIL {line}")
    print(f"accuracy-gate: {'FAILED' if failures else 'passed'} ({len(measured)} cases)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
