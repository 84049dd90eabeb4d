"""The perf gate: instruction counts of the workloads of gates/perf_workloads.cpp against the
committed baseline gates/perf_baseline.json (gates/README.md).

Each workload runs under callgrind with instrumentation off until the program switches it on
around the workload, so the count is of the workload alone and the same on every run of the
same build on the same machine. An increase above 3 % fails; a decrease of more than 1 % only
prints a reminder to update the baseline. The gate fails closed: a baseline that is missing,
unreadable or malformed fails it, and so does a workload that is run but not in the baseline or
in the baseline but no longer run (adding or removing one needs an update, committed):

    scripts/perf-gate              # compare (exit status 1 on a regression)
    scripts/perf-gate --update     # rewrite the baseline from this build

When a workload's vector-field evaluations differ from the baseline's (an adaptive method that
took another step, an implicit one another iteration), its count is compared per evaluation:
the gate checks what the work costs, and the accuracy gate checks how much work there is.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import committed_file

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(REPO, "gates", "perf_baseline.json")
FAIL_ABOVE = 0.03     # relative increase that fails
REMIND_BELOW = -0.01  # relative decrease that asks for a baseline update

BASELINE_COMMENT = ("Instructions (callgrind Ir) of each workload of gates/perf_workloads.cpp, "
                    "from a Release build; rewrite with scripts/perf-gate --update.")


def check_entry(entry):
    """None for a well-formed baseline entry, else what is wrong with it."""
    instructions, f_evals = entry.get("instructions"), entry.get("f_evals")
    if not (isinstance(instructions, int) and not isinstance(instructions, bool)
            and instructions > 0):
        return f"\"instructions\" is {json.dumps(instructions)}, not a positive integer"
    if not (isinstance(f_evals, int) and not isinstance(f_evals, bool) and f_evals >= 0):
        return f"\"f_evals\" is {json.dumps(f_evals)}, not an integer >= 0"
    return None


def compare(baseline, measured, failed=()):
    """Rows (workload, baseline Ir, measured Ir, relative change or None, note), the failures
    and the reminders, each a one-line string naming the workload. `baseline` and `measured`
    map a workload to {"instructions": n, "f_evals": m}; `failed` names the workloads that
    failed to run (reported by the caller, which knows why)."""
    rows, failures, reminders = [], [], []
    for name in sorted(set(baseline) | set(measured) | set(failed)):
        base, now = baseline.get(name), measured.get(name)
        if name in failed:
            rows.append((name, base and base["instructions"], None, None, "failed to run"))
            continue
        if base is None:
            rows.append((name, None, now["instructions"], None, "not in the baseline"))
            failures.append(f"{name}: run but not in the baseline (a new workload needs "
                            "`scripts/perf-gate --update`, committed)")
            continue
        if now is None:
            rows.append((name, base["instructions"], None, None, "no longer run"))
            failures.append(f"{name}: in the baseline but no longer run (a removal needs "
                            "`scripts/perf-gate --update`, committed)")
            continue
        count, note = now["instructions"], ""
        if base["f_evals"] and now["f_evals"] and base["f_evals"] != now["f_evals"]:
            count = count * base["f_evals"] / now["f_evals"]
            note = f"f_evals {base['f_evals']} -> {now['f_evals']}: compared per evaluation"
        change = count / base["instructions"] - 1.0
        rows.append((name, base["instructions"], now["instructions"], change, note))
        if change > FAIL_ABOVE:
            failures.append(f"{name}: {change:+.2%} instructions ({base['instructions']} -> "
                            f"{now['instructions']}), above the +{FAIL_ABOVE:.0%} allowed")
        elif change < REMIND_BELOW:
            reminders.append(f"{name}: {change:+.2%} instructions")
    return rows, failures, reminders


def instructions(callgrind_out):
    """The instruction total of a callgrind output file: its `totals:` line, Ir first (the
    `summary:` line holds what was collected before instrumentation was switched on: 0)."""
    with open(callgrind_out) as f:
        for line in f:
            if line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError(f"{callgrind_out}: no totals line")


def run_workload(program, name, out_dir):
    out_file = os.path.join(out_dir, name.replace("/", "_") + ".callgrind")
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}",
         program, name], capture_output=True, text=True)
    if proc.returncode != 0:
        own = [line for line in proc.stderr.splitlines() if not line.startswith("==")]
        raise RuntimeError(f"{name}: the workload failed (exit status {proc.returncode}): "
                           + " ".join(own))
    work = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"instructions": instructions(out_file), "f_evals": work["f_evals"]}


def measure(program, jobs):
    """The counts of every workload, and the one-line error of each that failed to run."""
    names = subprocess.run([program, "--list"], capture_output=True, text=True,
                           check=True).stdout.split()
    measured, errors = {}, {}
    with tempfile.TemporaryDirectory(prefix="geomint-perf-gate-") as out_dir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(run_workload, program, name, out_dir) for name in names}
        for name, future in futures.items():
            try:
                measured[name] = future.result()
            except RuntimeError as e:
                errors[name] = str(e)
    return measured, errors


def print_table(rows):
    width = max(len(r[0]) for r in rows)
    print(f"{'workload':<{width}}  {'baseline Ir':>13}  {'Ir':>13}  {'change':>8}  note")
    for name, base, now, change, note in rows:
        print(f"{name:<{width}}  {base if base is not None else '-':>13}  "
              f"{now if now is not None else '-':>13}  "
              f"{format(change, '+.2%') if change is not None else '-':>8}  {note}")


def main(argv):
    parser = argparse.ArgumentParser(
        prog="perf-gate", description="Instruction counts of the gates' workloads against "
        "the committed baseline (gates/README.md).")
    parser.add_argument("--build", default=os.path.join(REPO, "build", "release"),
                        help="the Release build directory (default: build/release)")
    parser.add_argument("--baseline", default=BASELINE, help="default: gates/perf_baseline.json")
    parser.add_argument("--update", action="store_true", help="rewrite the baseline")
    parser.add_argument("--jobs", type=int, default=2, help="workloads run at once (default 2)")
    args = parser.parse_args(argv)

    # The committed file first: without it there is nothing to compare with.
    try:
        baseline = committed_file.read(args.baseline, "workloads", check_entry)
    except committed_file.Unusable as e:
        if not args.update:
            print(f"perf-gate: FAIL {e}")
            return 1
        print(f"perf-gate: {e}; writing a new one")
        baseline = {}
    program = os.path.join(args.build, "gates", "perf_workloads")
    if not shutil.which("valgrind"):
        sys.exit("perf-gate: valgrind is missing (scripts/install-deps installs it)")
    if not os.path.exists(program):
        sys.exit(f"perf-gate: {program} is missing; build it: "
                 f"cmake --build {args.build} --target perf_workloads")
    start = time.monotonic()
    measured, errors = measure(program, args.jobs)
    rows, failures, reminders = compare(baseline, measured, errors)
    print_table(rows)
    failures += [errors[name] for name in sorted(errors)]
    elapsed = f"{len(measured)} workloads in {time.monotonic() - start:.0f} s"
    if args.update and errors:
        for name in sorted(errors):
            print(f"perf-gate: FAIL {errors[name]}")
        sys.exit("perf-gate: the baseline was not rewritten")
    if args.update:
        committed_file.write(args.baseline, BASELINE_COMMENT, "workloads", measured)
        print(f"perf-gate: wrote {committed_file.shown(args.baseline)} ({elapsed})")
        return 0
    for line in reminders:
        print(f"perf-gate: reminder: {line}")
    if reminders:
        print("perf-gate: update the baseline with `scripts/perf-gate --update` and commit it")
    for line in failures:
        print(f"perf-gate: FAIL {line}")
    print(f"perf-gate: {'FAILED' if failures else 'passed'} ({elapsed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
