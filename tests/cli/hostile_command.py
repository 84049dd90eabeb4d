#!/usr/bin/env python3
"""A command that breaks the external-integrator contract (docs/external-integrators.md) in one
way, for tests/cli/test_external.py: hostile_command.py MODE INIT OUT [WORK]. Where it writes a
trajectory it starts right: the header and the initial state."""
import json
import os
import sys

mode, init_path, out = sys.argv[1:4]
work = sys.argv[4] if len(sys.argv) > 4 else None
init = json.load(open(init_path))
columns, state = init["columns"], init["state"]
if mode == "nothing":
    sys.exit(0)
if mode == "fails":
    sys.exit("hostile_command.py: it broke on purpose")
with open(out, "w") as f:
    if mode == "three_columns":
        f.write("t,%s,%s\n0,%r,%r\n" % (columns[1], columns[2], state[0], state[1]))
        sys.exit(0)
    f.write(",".join(columns) + "\n" + ",".join(repr(v) for v in [init["t0"], *state]) + "\n")
    if mode == "huge":  # 10 GB, if nothing stops it
        row = ",".join(["0.5"] * len(columns)) + "\n"
        for _ in range(10 * 2**30 // len(row)):
            f.write(row)
    elif mode == "nan":
        f.write(",".join(["0.5"] + ["nan"] * len(state)) + "\n")
    elif mode == "short":  # stops half way
        f.write(",".join(repr(v) for v in [(init["t0"] + init["T"]) / 2, *state]) + "\n")
    elif mode == "off_manifold":  # every position twice as long
        f.write(",".join(repr(v) for v in [init["T"], *(2 * v for v in state)]) + "\n")
    elif mode in ("work_fifo", "work_zero"):  # a right trajectory (at rest at T), a hostile work file
        f.write(",".join(repr(v) for v in [init["T"], *state]) + "\n")
        if mode == "work_fifo":
            os.mkfifo(work)  # nobody writes it: reading it would block for ever
        else:
            os.symlink("/dev/zero", work)
