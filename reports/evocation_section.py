"""The pattern evocations of an experiment with `evoke` (studies/README.md, docs/result-files.md
evocation/<case_id>/): for each evoked case its critical frequency, its best frames with their
rate xi, closure score and lag (the time after which the pattern closes), the score against xi
and each best frame, drawn by evoke_figures.py's own functions (as `geomint evoke` draws them).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import numpy as np

import evoke_figures
from figures import save_figure
from formatting import fmt_float
from results import Series, Study, slug


@dataclass
class CaseEvocation:
    """One evoked case as the page shows it; figures are stems in the report."""

    label: str
    status: str
    detail: str
    summary: dict[str, Any] = field(default_factory=dict)  # evocation.json, when status is ok
    figures: list[str] = field(default_factory=list)


def scan_text(evoke: dict[str, Any]) -> str:
    """The experiment's scan in words."""
    lags = "the default lags (a tenth to a half of the time span)"
    if evoke.get("lag_min") is not None and evoke.get("lag_max") is not None:
        lags = f"lags {evoke['lag_min']:g} to {evoke['lag_max']:g} s"
    return (f"{evoke.get('count')} frames turning about e3 at xi = {evoke.get('xi_min'):g} to "
            f"{evoke.get('xi_max'):g} rad/s, {lags}, the best {evoke.get('best')} kept")


def _arrays(series: Series) -> dict[str, np.ndarray]:
    return {k: np.array([np.nan if v is None else v for v in values], dtype=float)
            for k, values in series.items()}


def draw_evocations(study: Study, experiment: dict[str, Any], out_dir: Path) -> list[CaseEvocation]:
    """Draw the scores and best frames of each of the experiment's evocations into
    out_dir/figures/<study>/."""
    drawn = []
    for evoked in experiment.get("evocations") or []:
        label = f"{evoked.get('integrator', '?')} h={fmt_float(evoked.get('h'))}"
        status = str(evoked.get("status", ""))
        case = CaseEvocation(label, status, str(evoked.get("detail") or ""))
        drawn.append(case)
        if status != "ok":
            continue
        files = study.evocation(evoked)
        if files is None:
            case.status, case.detail = "missing", f"no evocation.json in {evoked['dir']}"
            continue
        case.summary = files.summary
        stem = f"figures/{study.slug}/{slug(experiment['name'])}-evoke-{slug(str(evoked['case_id']))}"
        save_figure(evoke_figures.scores_figure(_arrays(files.scores), files.summary),
                    out_dir / f"{stem}-scores")
        case.figures.append(f"{stem}-scores")
        for best, frame in zip(files.summary["best"], files.frames):
            fig = evoke_figures.frame_figure(_arrays(frame), files.summary["bodies"], best)
            save_figure(fig, out_dir / f"{stem}-frame{best['rank']}")
            case.figures.append(f"{stem}-frame{best['rank']}")
    return drawn


def evocation_html(experiment: dict[str, Any], evocations: list[CaseEvocation]) -> str:
    """The experiment's section "Pattern evocation", or "" when it has no `evoke`."""
    if not experiment.get("evoke"):
        return ""
    parts = ["<h3>Pattern evocation</h3>",
             f'<p class="note">{escape(scan_text(experiment["evoke"]))}. Score: 0 the pattern '
             "closes after the lag, about 1 it does not (docs/pattern-evocation.md).</p>"]
    if not evocations:
        parts.append('<p class="note">No evoked case.</p>')
    for case in evocations:
        parts.append(f"<h4>{escape(case.label)}</h4>")
        if case.status != "ok":
            parts.append(f'<p class="note">No evocation ({escape(case.status)}): '
                         f"{escape(case.detail)}</p>")
            continue
        critical = case.summary.get("critical_frequency")
        parts.append(f"<p>Critical frequency (the bodies' mean azimuth rate): "
                     f"<strong>{escape(_rate(critical))}</strong> rad/s; "
                     f"{escape(str(case.summary.get('samples')))} samples "
                     f"({escape(str(case.summary.get('trajectory', '')))}).</p>")
        for warning in case.summary.get("warnings") or []:
            parts.append(f'<p class="warning">\u26a0 {escape(str(warning))}</p>')
        rows = "".join(
            f'<tr><td class="num">{escape(str(b["rank"]))}</td>'
            f'<td class="num">{escape(_rate(b["xi"]))}</td>'
            f'<td class="num">{escape(fmt_float(b["score"]))}</td>'
            f'<td class="num">{escape(_rate(b["lag"]))}'
            f'{" (on a bound)" if b.get("lag_on_bound") else ""}</td>'
            f'<td class="num">{escape(", ".join(_rate(a) for a in b.get("aliases") or []))}</td>'
            "</tr>"
            for b in case.summary.get("best", []))
        parts.append('<div class="scroll"><table><tr><th>rank</th><th>xi [rad/s]</th>'
                     "<th>score</th><th>lag: closes after [s]</th>"
                     "<th>aliases: xi + 2 pi k / lag [rad/s]</th></tr>"
                     f"{rows}</table></div>")
        if case.summary.get("best_definition"):
            parts.append(f'<p class="note">Best frames: '
                         f'{escape(str(case.summary["best_definition"]))}; a frame closes at a '
                         f'score of at most {escape(str(case.summary.get("closing_score")))}. '
                         "Critical frequency: "
                         f'{escape(str(case.summary.get("critical_frequency_definition", "")))}.'
                         "</p>")
        for stem in case.figures:
            src = escape(stem)
            parts.append(f'<figure><a href="{src}.svg"><img src="{src}.png" '
                         f'alt="pattern evocation"></a></figure>')
    return "\n".join(parts)


def _rate(x: float | None) -> str:
    """Rates and lags with 6 significant digits: the reader compares them with formulas."""
    return "n/a" if x is None else f"{x:.6g}"
