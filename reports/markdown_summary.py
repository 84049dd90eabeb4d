"""summary.md: per study its verdict counts and the promises broken (verdicts.csv), the
reproduction table with each row's band, the claims, and the fitted-orders table, in Markdown.

Meant for pasting into reviews and commit messages, so it says in words (not only with
emphasis) what index.html shows in colour.
"""
from __future__ import annotations

from pathlib import Path

from figures import StudyFigure
from formatting import (STATES, band, band_counts, band_text, fmt_bound, fmt_correlation,
                        fmt_count, fmt_float, fmt_ratio, fmt_value, state_words,
                        verdict_counts)
from results import Row, Study

CLAIM_WORDS = {"held": "✓ held", "not_held": "✗ not held", "not_checked": "? not checked"}


def write_summary(path: Path, studies: list[Study],
                  across: dict[str, list[StudyFigure]] | None = None) -> None:
    """across: each study's study-level figures by its slug, summarised as their tables."""
    parts = ["# geomint report summary", ""]
    for study in studies:
        manifest = study.manifest
        counts = verdict_counts(study.verdicts)
        parts += [f"## {_cell(study.title)} (`{study.name}`)", "",
                  f"Revision {_cell(str(manifest.get('git_revision', '?')))}; "
                  f"{sum(c['status'] == 'ok' for c in study.cases)} of {len(study.cases)} "
                  "cases ok.", "",
                  "Verdicts (verdicts.csv): " + ", ".join(
                      f"{STATES[s][0]} {counts[s]} {STATES[s][1]}"
                      for s in ("kept", "broken", "not_checked", "explained")) + ".", "",
                  "### Promises broken", ""]
        parts += _broken(study.verdicts) or ["None: no promise was measured and not held.", ""]
        parts += ["### Reproduction", ""]
        if study.reproduction:
            parts += [f"Band: {band_counts(study.reproduction).text()}.", ""]
        parts += _reproduction(study.reproduction) or ["No reproduction rows.", ""]
        if study.claims:
            parts += ["### Claims", ""] + _claims(study.claims)
        parts += ["### Fitted orders", ""]
        parts += _orders(study.orders) or ["No fitted orders.", ""]
        for figure in (across or {}).get(study.slug, []):
            parts += [f"### {_cell(figure.title)}", ""]
            parts += (_table(*figure.table) if figure.table else []) or ["Nothing plotted.", ""]
            parts += [line for footnote in figure.footnotes for line in (footnote, "")]
    path.write_text("\n".join(parts), encoding="utf-8")


def _broken(rows: list[Row]) -> list[str]:
    lines = [[r["experiment"], r["integrator"], r["promise"], f"✗ {state_words(r)}",
              fmt_value(r), fmt_bound(r), r["reason"]]
             for r in rows if r["state"] == "broken"]
    return _table(["experiment", "integrator", "promise", "state", "value", "bound", "reason"],
                  lines)


def _reproduction(rows: list[Row]) -> list[str]:
    lines = []
    for row in rows:
        role = row["role"] + (" (reproducing setting)" if row["role"] == "reproducing" else "")
        ratio = fmt_ratio(row["ratio"])
        verdict = band_text(row)
        if band(row) == "out":
            ratio, verdict = f"**{ratio}**", f"**{verdict}**"
        lines.append([row["example"], row["method"], row["setting"], role, row["metric"],
                      fmt_float(row["published"]), fmt_float(row["ours"]), ratio, verdict,
                      row["note"]])
    return _table(["example", "method", "setting", "role", "metric", "published", "ours",
                   "ratio", "band", "note"], lines)


def _claims(rows: list[Row]) -> list[str]:
    return _table(["claim", "where", "experiment", "metric", "measured", "bound", "state",
                   "reason"],
                  [[c["claim"], c["where"], c["experiment"], c["metric"], fmt_float(c["measured"]),
                    fmt_bound(c), CLAIM_WORDS[c["state"]], c["reason"]] for c in rows])


def _orders(rows: list[Row]) -> list[str]:
    lines = []
    for row in rows:
        adaptive = row["abscissa"] != "h"
        window = ("" if row["window_largest"] is None or row["window_smallest"] is None else
                  f"h = {row['window_largest']:.4g} .. {row['window_smallest']:.4g}")
        lines.append([row["experiment"], row["integrator"], fmt_count(row["nominal_order"]),
                      "" if adaptive else fmt_value({"promise": "order",
                                                     "value": row["fitted_order"]}),
                      fmt_value({"promise": "order", "value": row["slope_vs_mean_step"]})
                      if adaptive else "", window,
                      f"{fmt_count(row['points_used'])}/{fmt_count(row['points_total'])}",
                      fmt_float(row["fit_deviation"]), fmt_correlation(row["correlation"]),
                      row["note"]])
    return _table(["experiment", "integrator", "nominal", "fitted order",
                   "slope vs mean step (adaptive)", "window", "points used/total",
                   "\\|p/p_nominal − 1\\|", "correlation", "note"], lines)


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    """Markdown table lines followed by a blank line; [] when there are no rows."""
    if not rows:
        return []
    return ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers),
            *("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows), ""]


def _cell(text: str) -> str:
    """Keep a value inside its table cell: no pipes, no line breaks."""
    return text.replace("|", "\\|").replace("\n", " ")
