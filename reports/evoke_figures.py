"""The figures of a pattern evocation (`geomint evoke`, docs/pattern-evocation.md).

Usage: evoke_figures.py DIR

Reads DIR/evocation.json, DIR/scores.csv and the best frames DIR/frames/<rank>-xi<value>.csv,
and writes DIR/figures/scores.png (the closure score against the frame rate xi, the best frames
and the critical frequency marked) and DIR/figures/<rank>-xi<value>.png (each best frame: the
bodies' curves in 3-D on equal scales, and seen from above). Each file is written to a
temporary name and renamed when complete; figures of frames an earlier evocation left are
removed. Exit status: 0 done; 2 malformed input, one line on stderr; 4 a file could not be
read or written.
"""
from __future__ import annotations

import csv
import json
import os
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402

from figures import CURVE_COLORS, FLOOR  # noqa: E402  (colours of what is not an integrator)

FRAME_FIGURE = re.compile(r"[0-9]+-xi.*\.png")


class EvocationError(Exception):
    """Malformed evocation results: exit status 2."""


def read_columns(path: Path) -> dict[str, np.ndarray]:
    """A CSV of numbers as {column: values}."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        raise EvocationError(f"{path}: no rows")
    header, body = rows[0], rows[1:]
    try:
        values = np.array([[float(v) for v in row] for row in body], dtype=float)
    except ValueError as err:
        raise EvocationError(f"{path}: {err}") from err
    if values.shape[1:] != (len(header),):
        raise EvocationError(f"{path}: rows of another length than the header")
    return {name: values[:, j] for j, name in enumerate(header)}


def save(fig: MplFigure, path: Path) -> None:
    """PNG at `path`, written under a temporary name and renamed when complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp.{os.getpid()}.png")
    try:
        fig.savefig(tmp, dpi=110, bbox_inches="tight")
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        tmp.unlink(missing_ok=True)


def scores_figure(scores: dict[str, np.ndarray], evocation: dict) -> MplFigure:
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.grid(True, which="major", alpha=0.3)
    ax.semilogy(scores["xi"], np.maximum(scores["score"], FLOOR), color=CURVE_COLORS[0],
                linewidth=0.9, label="closure score")
    for best in evocation["best"]:
        ax.plot(best["xi"], max(best["score"], FLOOR), "o", color=CURVE_COLORS[1], markersize=4)
        ax.annotate(str(best["rank"]), (best["xi"], max(best["score"], FLOOR)), fontsize="small",
                    textcoords="offset points", xytext=(3, 3))
    critical = evocation.get("critical_frequency")
    if critical is not None:
        ax.axvline(critical, color=CURVE_COLORS[2], linestyle="--", linewidth=0.9,
                   label=f"critical frequency {critical:.5g} rad/s")
    ax.set_xlabel(r"frame rate $\xi$ [rad/s]")
    ax.set_ylabel("closure score (0 closed, ~1 not)")
    ax.set_title(f"pattern evocation: lags {evocation['lag_min']:.4g} to "
                 f"{evocation['lag_max']:.4g} s; numbered: the best frames", fontsize="medium")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def frame_figure(frame: dict[str, np.ndarray], bodies: list[str], best: dict) -> MplFigure:
    """One best frame: 3-D on equal scales (left) and from above, along e3 (right)."""
    fig = plt.figure(figsize=(10.5, 4.8))
    ax3 = fig.add_subplot(1, 2, 1, projection="3d")
    top = fig.add_subplot(1, 2, 2)
    points = []
    for index, body in enumerate(bodies):
        x, y, z = (frame[f"{body}_{a}"] for a in "xyz")
        color = CURVE_COLORS[index % len(CURVE_COLORS)]
        ax3.plot(x, y, z, linewidth=0.6, color=color, label=body)
        top.plot(x, y, linewidth=0.6, color=color, label=body)
        top.plot(x[:1], y[:1], "o", color=color, markersize=3)
        points.append(np.column_stack([x, y, z]))
    every = np.concatenate(points)
    low, high = every.min(axis=0), every.max(axis=0)
    half = max(float((high - low).max()) / 2, 1e-300)
    for limits, middle in zip((ax3.set_xlim, ax3.set_ylim, ax3.set_zlim), (low + high) / 2):
        limits(middle - half, middle + half)
    ax3.set_box_aspect((1, 1, 1))
    ax3.set_xlabel("x~")
    ax3.set_ylabel("y~")
    ax3.set_zlabel("z")
    top.plot([0], [0], "+", color="black", markersize=8)  # the axis e3
    top.set_aspect("equal", adjustable="datalim")
    top.grid(True, alpha=0.3)
    top.set_xlabel("x~")
    top.set_ylabel("y~")
    top.set_title("from above (+: the axis e3; dots: t = t0)", fontsize="small")
    top.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", frameon=False)
    fig.suptitle(f"frame {best['rank']}: xi = {best['xi']:.6g} rad/s, score {best['score']:.3g}, "
                 f"closest after {best['lag']:.4g} s", fontsize="medium")
    return fig


def draw(out: Path) -> None:
    try:
        evocation = json.loads((out / "evocation.json").read_text())
        bodies, best = evocation["bodies"], evocation["best"]
        scores = read_columns(out / "scores.csv")
        frames = [read_columns(out / b["frame"]) for b in best]
    except (KeyError, TypeError, json.JSONDecodeError) as err:
        raise EvocationError(f"{out}: malformed evocation results ({type(err).__name__}: {err})") from err
    figures = out / "figures"
    save(scores_figure(scores, evocation), figures / "scores.png")
    written = set()
    for b, frame in zip(best, frames):
        path = figures / (Path(b["frame"]).stem + ".png")
        save(frame_figure(frame, bodies, b), path)
        written.add(path.name)
    for old in figures.iterdir():
        if FRAME_FIGURE.fullmatch(old.name) and old.name not in written:
            old.unlink()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("evoke_figures: usage: evoke_figures.py DIR", file=sys.stderr)
        return 2
    try:
        draw(Path(args[0]))
    except EvocationError as err:
        print(f"evoke_figures: {err}".replace("\n", " "), file=sys.stderr)
        return 2
    except OSError as err:
        print(f"evoke_figures: cannot read or write {err.filename or args[0]}: {err.strerror}",
              file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
