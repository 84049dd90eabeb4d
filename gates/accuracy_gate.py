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
           (round-off-level and statistically zero numbers: only their magnitude is held).
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

ANSWERS_COMMENT = ("Answers of the cases of gates/accuracy_cases.cpp (rules in "
                   "gates/accuracy_gate.py); rewrite with scripts/accuracy-gate --update.")


def unit_in_4th_digit(x):
    return 10.0 ** (math.floor(math.log10(abs(x))) - 3)


def answer_for(kind, value):
    """The answer committed for a measured value."""
    if kind == "float":
        return float(f"{value:.4g}")
    if kind == "count":
        return int(round(value))
    if kind == "ceiling":
        return 10.0 ** (math.ceil(math.log10(max(abs(value), SMALLEST_CEILING))) + 1)
    raise ValueError(f"unknown kind {kind!r}")


def check(kind, answer, value):
    """None when `value` passes against `answer`, else why not (one line)."""
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
    raise ValueError(f"unknown kind {kind!r}")


def compare(answers, measured):
    """Rows (case, kind, answer, value, failure or None), the failures and the reminders, each a
    one-line string naming the case. `answers` maps a case to {"kind", "value"} as committed,
    `measured` to {"kind", "value"} as computed."""
    rows, failures, reminders = [], [], []
    for name in sorted(set(answers) | set(measured)):
        answer, now = answers.get(name), measured.get(name)
        if answer is None:
            reminders.append(f"{name}: not in the answers")
            rows.append((name, now["kind"], None, now["value"], None))
            continue
        if now is None:
            failures.append(f"{name}: no longer computed")
            rows.append((name, answer["kind"], answer["value"], None, "no longer computed"))
            continue
        if answer["kind"] != now["kind"]:
            why = f"its kind changed from {answer['kind']} to {now['kind']}"
        else:
            why = check(answer["kind"], answer["value"], now["value"])
        if why:
            failures.append(f"{name}: {why}")
        rows.append((name, now["kind"], answer["value"], now["value"], why))
    return rows, failures, reminders


def answers_from(measured):
    return {name: {"kind": c["kind"], "value": answer_for(c["kind"], c["value"])}
            for name, c in measured.items()}


def run_cases(program, perturbation=None):
    command = [program] + (["--perturb", repr(perturbation)] if perturbation is not None else [])
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"accuracy-gate: {' '.join(command)} failed (exit status {proc.returncode}): "
                 + proc.stderr.strip())
    return {c["case"]: {"kind": c["kind"], "value": c["value"]}
            for c in json.loads(proc.stdout)["cases"]}


def print_table(rows):
    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'kind':<7}  {'answer':>10}  {'value':>12}")
    for name, kind, answer, value, why in rows:
        answer_text = "-" if answer is None else format(answer, ".4g")
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
    args = parser.parse_args(argv)

    program = os.path.join(args.build, "gates", "accuracy_cases")
    if not os.path.exists(program):
        sys.exit(f"accuracy-gate: {program} is missing; build it: "
                 f"cmake --build {args.build} --target accuracy_cases")
    measured = run_cases(program)
    if args.robustness is not None:
        answers = answers_from(measured)
        measured = run_cases(program, args.robustness)
    elif os.path.exists(args.answers):
        with open(args.answers) as f:
            answers = json.load(f)["cases"]
    else:
        answers = {}
    rows, failures, reminders = compare(answers, measured)
    print_table(rows)
    if args.update:
        committed_file.write(args.answers, ANSWERS_COMMENT, "cases", answers_from(measured))
        print(f"accuracy-gate: wrote {os.path.relpath(args.answers)} ({len(measured)} cases)")
        return 0
    for line in reminders:
        print(f"accuracy-gate: reminder: {line}")
    if reminders:
        print("accuracy-gate: update the answers with `scripts/accuracy-gate --update` "
              "and commit them")
    for line in failures:
        print(f"accuracy-gate: FAIL {line}")
    print(f"accuracy-gate: {'FAILED' if failures else 'passed'} ({len(measured)} cases)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
