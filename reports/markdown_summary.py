"""summary.md: per study the reproduction table and the fitted-orders table, in Markdown.

Meant for pasting into reviews and commit messages, so it flags in words (not only
with emphasis) what index.html highlights in colour.
"""
from __future__ import annotations

from pathlib import Path

from figures import StudyFigure
from formatting import (fmt_count, fmt_float, fmt_order, order_deviates,
                        ratio_out_of_band)
from results import Row, Study


def write_summary(path: Path, studies: list[Study],
                  across: dict[str, list[StudyFigure]] | None = None) -> None:
    """across: each study's study-level figures by its slug, summarised as their tables."""
    parts = ["# geomint report summary", ""]
    for study in studies:
        manifest = study.manifest
        parts += [f"## {_cell(study.title)} (`{study.name}`)", "",
                  f"Revision {_cell(str(manifest.get('git_revision', '?')))}; "
                  f"{sum(c['status'] == 'ok' for c in study.cases)} of {len(study.cases)} "
                  "cases ok.", "", "### Reproduction", ""]
        parts += _reproduction(study.reproduction) or ["No reproduction rows.", ""]
        parts += ["### Fitted orders", ""]
        parts += _orders(study.orders) or ["No fitted orders.", ""]
        for figure in (across or {}).get(study.slug, []):
            parts += [f"### {_cell(figure.title)}", ""]
            parts += (_table(*figure.table) if figure.table else []) or ["Nothing plotted.", ""]
            parts += [line for footnote in figure.footnotes for line in (footnote, "")]
    path.write_text("\n".join(parts), encoding="utf-8")


def _reproduction(rows: list[Row]) -> list[str]:
    lines = []
    for row in rows:
        role = row["role"] + (" (reproducing setting)" if row["role"] == "reproducing" else "")
        ratio = fmt_float(row["ratio"])
        if ratio_out_of_band(row):
            ratio = f"**{ratio}** (out of band)"
        lines.append([row["example"], row["method"], row["setting"], role, row["metric"],
                      fmt_float(row["published"]), fmt_float(row["ours"]), ratio, row["note"]])
    return _table(["example", "method", "setting", "role", "metric", "published", "ours",
                   "ratio", "note"], lines)


def _orders(rows: list[Row]) -> list[str]:
    lines = []
    for row in rows:
        fitted = fmt_order(row["fitted_order"])
        if order_deviates(row):
            fitted = f"**{fitted}** (off nominal)"
        lines.append([row["experiment"], row["integrator"], fmt_count(row["nominal_order"]),
                      fitted, fmt_float(row["residual"]),
                      f"{fmt_count(row['points_used'])}/{fmt_count(row['points_total'])}",
                      row["note"]])
    return _table(["experiment", "integrator", "nominal", "fitted", "residual (log10)",
                   "points used/total", "note"], lines)


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    """Markdown table lines followed by a blank line; [] when there are no rows."""
    if not rows:
        return []
    return ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers),
            *("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows), ""]


def _cell(text: str) -> str:
    """Keep a value inside its table cell: no pipes, no line breaks."""
    return text.replace("|", "\\|").replace("\n", " ")
