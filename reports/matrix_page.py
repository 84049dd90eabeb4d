"""matrix.html: the integrator x model matrix of a `geomint matrix` result directory.

One row per model (experiment), one column per integrator. A cell shows the observed order
(fixed-step methods), the relative energy error, the energy drift (least-squares slope of
E(t) - E(0)) and the largest manifold defect at the finest setting, and the cost there (CPU
time, evaluations). Its colour says whether the integrator
kept what it declares, judged on every finished case of the cell:

- its order: |fitted - nominal| <= 0.2 (fixed-step methods whose fit kept >= 3 points);
- staying on the manifold (if it declares so): every manifold defect the model declares
  (|‖q_i‖ - 1|, |q_i . w_i|, ‖Q^T Q - I‖, ...; manifold_defect_max) <= 1e-12;
- symplecticity (if it declares it): the momentum map kept to 1e-10 relative (models with a
  symmetry) and a bounded energy error, max |E - E0| / |E0| <= 1e-2.

Green: every promise that applies is kept. Red: one is broken (named in the cell). Amber: a
case failed (its failure kind is shown). Grey: n/a, the model lacks the view the integrator
needs (named).
"""
from __future__ import annotations

import math
from html import escape
from pathlib import Path

from formatting import ORDER_TOLERANCE, TimingMark, fmt_float, fmt_order, timing_mark
from results import Row, Study, read_csv

MANIFOLD_TOLERANCE = 1e-12
MOMENTUM_TOLERANCE = 1e-10
ENERGY_BOUND = 1e-2
PROMISE_COLUMNS = ("symplectic", "stays_on_manifold", "momentum_rel_err_max",
                   "energy_rel_err_max", "manifold_defect_max")

STYLE = """
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; font-size: 0.8em; }
th, td { border: 1px solid #bbb; padding: 0.3em 0.5em; vertical-align: top; }
th { background: #eee; }
td.kept { background: #d8f0d8; } td.broken { background: #f6d0d0; }
td.failed { background: #fbe5c0; } td.na { background: #e8e8e8; color: #666; }
td.unjudged { background: #fff; }
.why { color: #a00; }
"""


def is_matrix(study: Study) -> bool:
    return study.manifest.get("kind") == "matrix"


def page_name(study: Study) -> str:
    """The matrix page's file name in the report directory (index.html links it)."""
    return f"{study.slug}-matrix.html"


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def _finest(cases: list[Row]) -> Row | None:
    """The ok case with the smallest step (fixed-step) or tolerance (adaptive)."""
    ok = [c for c in cases if c["status"] == "ok"]
    if not ok:
        return None
    return min(ok, key=lambda c: c["h"] if c["h"] is not None else (c["rtol"] or math.inf))


def judge(cases: list[Row], order: Row | None) -> tuple[str, list[str]]:
    """The cell's class (kept, broken, failed, na, unjudged) and the promises broken."""
    if all(c["status"] == "n/a" for c in cases):
        return "na", []
    failed = sorted({c["status"] for c in cases if c["status"] not in ("ok", "n/a")})
    ok = [c for c in cases if c["status"] == "ok"]
    broken: list[str] = []
    if order and _finite(order["fitted_order"]) and order["abscissa"] == "h" and \
            abs(order["fitted_order"] - order["nominal_order"]) > ORDER_TOLERANCE:
        broken.append("order")
    if any(c["stays_on_manifold"] for c in ok) and any(
            not (c["manifold_defect_max"] is None or c["manifold_defect_max"] <= MANIFOLD_TOLERANCE)
            for c in ok):
        broken.append("manifold")
    if any(c["symplectic"] for c in ok):
        if any(_finite(c["momentum_rel_err_max"]) and c["momentum_rel_err_max"] > MOMENTUM_TOLERANCE
               for c in ok):
            broken.append("momentum")
        if any(not _finite(c["energy_rel_err_max"]) or c["energy_rel_err_max"] > ENERGY_BOUND
               for c in ok):
            broken.append("bounded energy")
    if broken:
        return "broken", broken
    if failed:
        return "failed", failed
    return ("kept" if ok else "unjudged"), []


def _cell(cases: list[Row], order: Row | None, mark: TimingMark) -> str:
    kind, notes = judge(cases, order)
    if kind == "na":
        detail = next((c["status_detail"] for c in cases if c["status_detail"]), "n/a")
        return f'<td class="na" title="{escape(detail)}">{escape(detail)}</td>'
    lines: list[str] = []
    if order and order["abscissa"] == "h":
        lines.append(f"p = {fmt_order(order['fitted_order'])} "
                     f"({fmt_order(order['nominal_order'])})")
    finest = _finest(cases)
    if finest:
        lines.append(f"|ΔE|/|E| {fmt_float(finest['energy_rel_err_max'])}")
        lines.append(f"drift {fmt_float(finest['energy_drift_per_time'])} /s")
        lines.append(f"defect {fmt_float(finest['manifold_defect_max'])}")
        lines.append(f"{fmt_float(finest['cpu_s'])} s{mark.of(finest['integrator'])}, "
                     f"{int(finest['f_evals'] or 0)} evals")
    failed = [c for c in cases if c["status"] not in ("ok", "n/a")]
    if failed:
        lines.append(f"{len(failed)} failed: " + ", ".join(sorted({c['status'] for c in failed})))
    if kind == "broken":
        lines.append('<span class="why">broke: ' + escape(", ".join(notes)) + "</span>")
    return f'<td class="{kind}">' + "<br>".join(lines) + "</td>"


def matrix_html(study: Study) -> str:
    """The matrix table (and its legend) for one matrix study."""
    extra = {r["case_id"]: r for r in read_csv(study.path / "cases.csv", ("case_id",),
                                               PROMISE_COLUMNS)}
    cases = [{**c, **extra.get(c["case_id"], {})} for c in study.cases]
    integrators: list[str] = []
    for c in cases:
        if c["integrator"] not in integrators:
            integrators.append(c["integrator"])
    head = "<tr><th>model</th>" + "".join(f"<th>{escape(i)}</th>" for i in integrators) + "</tr>"
    mark = timing_mark(study.manifest)
    rows = []
    for experiment in study.experiments():
        name = experiment["name"]
        orders = {o["integrator"]: o for o in study.orders_of(name)}
        cells = [_cell([c for c in cases if c["experiment"] == name and c["integrator"] == i],
                       orders.get(i), mark) for i in integrators]
        model = escape(str(experiment.get("model", name)))
        rows.append(f"<tr><th>{model}<br><small>{escape(str(experiment.get('preset', '')))}"
                    "</small></th>" + "".join(cells) + "</tr>")
    legend = escape(__doc__.split("\n\n", 1)[1]).replace("\n\n", "<br><br>")
    footnotes = "".join(f"<p>{escape(f)}</p>" for f in mark.footnotes(integrators))
    return f"<table>{head}{''.join(rows)}</table>{footnotes}<p>{legend}</p>"


def write_matrix_page(path: Path, study: Study) -> None:
    path.write_text("<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                    f"<title>{escape(study.title)}</title><style>{STYLE}</style></head><body>"
                    f"<h1>{escape(study.title)}</h1>{matrix_html(study)}</body></html>",
                    encoding="utf-8")
