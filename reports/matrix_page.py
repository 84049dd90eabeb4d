"""The matrix page of a `geomint matrix` result directory: the heat map (heat_map.py); for a
long-time matrix (long_time.is_long_time) the long run's growth exponents as a second heat map
and its envelopes by model (long_time_page.py); what each promise measures and the bounds
verdicts.csv holds it to, the n/a pairs in a line per missing view, then the verdicts that are
not kept, grouped by state: broken, not checked (other than n/a) and explained. Every cell's
numbers are in the heat map's detail panel.
"""
from __future__ import annotations

import re
from html import escape
from pathlib import Path

import heat_map
import long_time
import long_time_page
import page_shell
from figures import ExperimentFigures
from formatting import PROMISE_VALUES, WHY, fmt_bound, fmt_value, verdict_counts, verdict_state
from matrix_verdict import Grid
from page_shell import num, row, table, td, verdict_badge
from results import Row, Study

STYLE = """
ul.na li { margin: 0.3em 0; }
span.model[title] { border-bottom: 1px dotted #888; cursor: help; }
"""

# status_detail / reason of an n/a pair: "n/a: <model> has no <view> view".
MISSING_VIEW = re.compile(r"has no (.+) view\s*$")


def counts_line(rows: list[Row]) -> str:
    """E.g. "593 promises kept, 2 broken, 200 not checked, 0 explained"."""
    counts = verdict_counts(rows)
    return (f"{counts['kept']} promises kept, {counts['broken']} broken, "
            f"{counts['not_checked']} not checked, {counts['explained']} explained")


def promises_html(rows: list[Row]) -> str:
    """What each promise in verdicts.csv measures, and the bounds its rows hold it to (taken
    from their bound and relation columns, not decided here)."""
    items = []
    for promise in dict.fromkeys(r["promise"] for r in rows):
        of = [r for r in rows if r["promise"] == promise]
        bounds = sorted({(r["relation"], r["bound"]) for r in of if r["bound"] is not None},
                        key=lambda b: (b[0], b[1]))
        held = ", ".join(fmt_bound({"relation": rel, "bound": b}) for rel, b in bounds)
        what = PROMISE_VALUES.get(promise, "")
        items.append(f"<li><b>{escape(promise)}</b>" + (f": {escape(what)}" if what else "")
                     + (f"; kept when {escape(held)}" if held else "")
                     + f" ({len(of)} rows)</li>")
    return ("<p>What each integrator promises, as verdicts.csv measures it (the bounds are its "
            "rows'; the order's depends on each integrator's nominal order):</p>"
            f'<ul>{"".join(items)}</ul>')


def not_applicable_html(cells: Grid) -> str:
    """The n/a pairs, a line per view a model lacks: the models that lack it and the
    integrators that need it, when the pairs are all of those (else a line per model)."""
    by_view: dict[str, dict[str, list[str]]] = {}  # view -> model -> integrators
    for cell in cells.cells.values():
        if cell.state != "na":
            continue
        reason = cell.verdicts[0]["reason"]
        found = MISSING_VIEW.search(reason)
        view = found.group(1) if found else reason
        by_view.setdefault(view, {}).setdefault(cell.model, []).append(cell.integrator)
    if not by_view:
        return '<p class="note">No pair is n/a.</p>'
    lines = []
    for view, models in by_view.items():
        integrators = list(dict.fromkeys(i for found in models.values() for i in found))
        pairs = sum(len(found) for found in models.values())
        if pairs == len(models) * len(integrators):
            lines.append(f"<li><b>no {escape(view)} view</b> ({_pairs(pairs)}): models "
                         f"{escape(', '.join(models))} × integrators "
                         f"{escape(', '.join(integrators))}</li>")
        else:
            lines.append(f"<li><b>no {escape(view)} view</b> ({_pairs(pairs)}): " + "; ".join(
                f"{escape(model)} × {escape(', '.join(found))}" for model, found in models.items())
                + "</li>")
    total = sum(cell.state == "na" for cell in cells.cells.values())
    return (f"<p>{_pairs(total)} n/a (model × integrator): the model lacks the view the "
            "integrator needs, so nothing ran. By the view missing:</p>"
            f'<ul class="na">{"".join(lines)}</ul>')


def _pairs(count: int) -> str:
    return f"{count} pair" + ("" if count == 1 else "s")


def _verdict_rows(rows: list[Row]) -> str:
    lines = [row([td(escape(r["integrator"])), td(escape(r["model"])), td(escape(r["promise"])),
                  td(verdict_badge(r)), num(fmt_value(r)), num(fmt_bound(r)),
                  td(escape(r["reason"]))]) for r in rows]
    return table(("integrator", "model", "promise", "state", "value", "bound", "reason"), lines)


def _not_checked(rows: list[Row], every: list[Row]) -> str:
    """Grouped by why, integrator and promise; each model's reason on hover. every: all of
    verdicts.csv's rows, to say "every model it runs on" rather than list them."""
    runs_on: dict[str, set[str]] = {}
    for r in every:
        if verdict_state(r) != "na":
            runs_on.setdefault(r["integrator"], set()).add(r["model"])
    groups: dict[tuple[str, str, str], list[Row]] = {}
    for r in rows:
        groups.setdefault((r["why"], r["integrator"], r["promise"]), []).append(r)
    lines = []
    for (why, integrator, promise), found in sorted(groups.items()):
        if {r["model"] for r in found} == runs_on.get(integrator) and len(found) > 1:
            example = f'{found[0]["model"]}: {found[0]["reason"]}'
            models = (f'<span class="model" title="for example {escape(example)}">every model '
                      "it runs on</span>")
        else:
            models = ", ".join(f'<span class="model" title="{escape(r["reason"])}">'
                               f'{escape(r["model"])}</span>' for r in found)
        lines.append(row([td(escape(WHY.get(why, why) or why)), td(escape(integrator)),
                          td(escape(promise)), num(str(len(found))), td(models)]))
    return table(("why", "integrator", "promise", "models", "which (hover for the reason; "
                  "every cell's is in the heat map)"), lines)


def not_kept_html(rows: list[Row]) -> str:
    """The verdict rows that are not kept, by state; n/a rows are left out (listed apart)."""
    parts = []
    broken = [r for r in rows if r["state"] == "broken"]
    unchecked = [r for r in rows if verdict_state(r) == "not_checked"]
    explained = [r for r in rows if r["state"] == "explained"]
    parts.append(f'<h3 id="broken">Broken ({len(broken)})</h3>')
    parts.append(_verdict_rows(broken) if broken else
                 '<p class="note">No promise was measured and not held.</p>')
    parts.append(f'<h3 id="not-checked">Not checked, other than n/a ({len(unchecked)})</h3>')
    parts.append(_not_checked(unchecked, rows) if unchecked else
                 '<p class="note">Every promise that applies was measured.</p>')
    parts.append(f'<h3 id="explained">Explained ({len(explained)})</h3>')
    parts.append(_verdict_rows(explained) if explained else
                 '<p class="note">No known deviation.</p>')
    return "".join(parts)


def write_matrix_page(path: Path, study: Study, cells: Grid,
                      figures: dict[str, ExperimentFigures]) -> None:
    """figures: the study's, by experiment name (the heat map links each model's)."""
    body = (f"<h1>{escape(study.title)}</h1>"
            f"<p>{len(cells.rows)} models × {len(cells.integrators)} integrators: "
            f"{escape(counts_line(study.verdicts))} (verdicts.csv). "
            f'<a href="{escape(page_shell.study_file(study))}">The study\'s page</a> has every '
            "case.</p>"
            + "<h2>Heat map</h2>" + heat_map.heat_map_html(study, cells, figures)
            + (long_time_page.section_html(study, cells, figures)
               if long_time.is_long_time(study) else "")
            + "<h2>Promises</h2>" + promises_html(study.verdicts)
            + "<h2>Not applicable</h2>" + not_applicable_html(cells)
            + "<h2>Not kept</h2>" + not_kept_html(study.verdicts))
    page_shell.write_page(path, study.title, body, STYLE + heat_map.STYLE + long_time_page.STYLE,
                          heat_map.SCRIPT)
