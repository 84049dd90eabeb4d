#!/usr/bin/env python3
"""A command that breaks the external-integrator contract (docs/external-integrators.md) in one
way, for tests/cli/test_external.py: hostile_command.py MODE INIT OUT. Where it writes a
trajectory it starts right: the header and the initial state, then steps of explicit Euler."""
import json
import sys

mode, init_path, out = sys.argv[1:4]
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
