#!/usr/bin/env python3
"""Heun's method (the explicit trapezoidal rule, order 2) as an integrator outside geomint, in
NumPy: it reads geomint's initial-state file and writes the trajectory CSV and its work
(docs/external-integrators.md). With --euler it takes explicit Euler steps (order 1): the
deliberately wrong integrator, when it is declared of order 2."""
import argparse, json, sys, time
import numpy as np

def field(model, p):
    if model == "spherical_pendulum":  # LLM (2.8), one body: q' = w x q, w' = (g/l) q x e3
        return lambda y: np.concatenate([np.cross(y[3:], y[:3]), p["g"] / p["l"] * np.cross(y[:3], [0, 0, 1])])
    if model == "free_rigid_body":  # Euler's equations: Pi' = Pi x I^-1 Pi
        return lambda y: np.cross(y, y / np.array([p["I1"], p["I2"], p["I3"]]))
    sys.exit(f"heun.py: no equations for {model}")

a = argparse.ArgumentParser()
for option in ("--init", "--out", "--work"):
    a.add_argument(option, required=True)
a.add_argument("--euler", action="store_true")
args = a.parse_args()
init = json.load(open(args.init))
f, y, t, n = field(init["model"], init["parameters"]), np.array(init["state"]), init["t0"], init["steps"]
rows, start = [[t, *y]], time.process_time()
for k in range(n):  # n steps of h, the last ending at T
    t_next = init["T"] if k == n - 1 else init["t0"] + (k + 1) * init["h"]
    dt, k1 = t_next - t, f(y)
    y, t = (y + dt * k1 if args.euler else y + dt / 2 * (k1 + f(y + dt * k1))), t_next
    rows.append([t, *y])
np.savetxt(args.out, rows, delimiter=",", header=",".join(init["columns"]), comments="", fmt="%.17g")
json.dump({"steps": n, "f_evals": n * (1 if args.euler else 2), "cpu_s": time.process_time() - start},
          open(args.work, "w"))
