"""index.html: the verdict at a glance, and the way to every study's page.

First a line with the verdicts of every study together, then, when the results hold a matrix
study, its heat map (heat_map.py: on the first screen), then a table with a row per study: the
cases run and failed, its verdicts by state (verdicts.csv), its reproduction rows out of band
(reproduction.csv's in_band; round-off rows counted apart) and its claims by state
(claims.csv). Then a section per study: the cases that failed, its reproduction and claims
tables and the promises broken (verdicts.csv's rows with state broken), each linked to its
experiment's verdicts on the study's page. Everything else is on the study's page.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html import escape
from pathlib import Path

import heat_map
import long_time
import matrix_verdict
import page_shell
from figures import ExperimentFigures
from formatting import (STATES, WHY, band_counts, case_label, fmt_bound, fmt_value,
                        status_text, verdict_counts)
from matrix_verdict import Grid
from page_shell import badge, notes, num, row, table, td
from results import Study
from study_page import claims_table, reproduction_table, verdicts_anchor

FAILED_SHOWN = 10  # failed cases named on the index, per study; the rest on its page

CSS = """
section h3 { margin-top: 1em; }
p.summary { font-size: 1.05em; }
h2.first { margin-top: 1em; }
table.glance td, table.glance th { padding: 0.3em 0.7em; }
.clean { color: #0072b2; }
ul.broken li { margin: 0.2em 0; }
"""


@dataclass(frozen=True)
class Verdict:
    """What index.html says of one study."""

    run: int  # cases that ran (not n/a, not skipped)
    failed: int  # of those, the ones that did not finish
    not_run: int  # n/a and skipped cases
    states: dict[str, int]  # verdicts.csv's rows by state
    claims: dict[str, int]  # claims.csv's rows by state


def verdict(study: Study) -> Verdict:
    statuses = [c["status"] for c in study.cases]
    not_run = sum(s in ("n/a", "skipped") for s in statuses)
    failed = sum(s not in ("ok", "n/a", "skipped") for s in statuses)
    claims = Counter(c["state"] for c in study.claims)
    return Verdict(len(statuses) - not_run, failed, not_run, verdict_counts(study.verdicts),
                   {state: claims[state] for state in ("held", "not_held", "not_checked")})


def write_index(path: Path, studies: list[Study], grids: dict[str, Grid],
                figures: dict[str, dict[str, ExperimentFigures]] | None = None) -> None:
    """grids: the matrix studies' cells, by slug; figures: each study's experiments' figures
    by slug (the heat map links the models')."""
    verdicts = [(study, verdict(study)) for study in studies]
    # The index shows one heat map: the matrix's (orders and short-run promises), a long-time
    # matrix's only when there is no other; its own page has both maps.
    matrices = [s for s in studies if s.slug in grids]
    matrix = next((s for s in matrices if not long_time.is_long_time(s)), matrices[0] if matrices else None)
    body = ["<h1>geomint report</h1>", _summary(verdicts)]
    script = ""
    if matrix is not None:
        body.append(f'<h2 class="first" id="heat-map">Integrator × model matrix: '
                    f'<a href="{escape(page_shell.matrix_file(matrix))}">'
                    f"{escape(matrix.title)}</a></h2>")
        body.append(heat_map.heat_map_html(matrix, grids[matrix.slug],
                                           (figures or {}).get(matrix.slug, {})))
        body.append(f'<p><a href="{escape(page_shell.matrix_file(matrix))}">The matrix page</a> '
                    "lists the promises and their bounds, the n/a pairs, and every verdict that "
                    "is not kept.</p>")
        script = heat_map.SCRIPT
    body.append(_glance(verdicts))
    body += [_section(study, v) for study, v in verdicts]
    page_shell.write_page(path, "geomint report", "".join(body),
                          CSS + (heat_map.STYLE if matrix is not None else ""), script)


def _summary(verdicts: list[tuple[Study, Verdict]]) -> str:
    """One line: the studies, the cases, and every study's verdicts together."""
    totals = Counter()
    for _, v in verdicts:
        totals.update(v.states)
    run = sum(v.run for _, v in verdicts)
    failed = sum(v.failed for _, v in verdicts)
    states = ", ".join(badge(state, f"{totals[state]} {STATES[state][1]}")
                       for state in ("kept", "broken", "not_checked", "explained"))
    return (f'<p class="summary">{len(verdicts)} stud{"y" if len(verdicts) == 1 else "ies"}, '
            f"{run} cases run ({failed} failed). Promises: {states} (verdicts.csv).</p>")


def _glance(verdicts: list[tuple[Study, Verdict]]) -> str:
    lines = []
    for study, v in verdicts:
        link = (f'<a href="#{escape(study.slug)}">{escape(study.title)}</a> '
                f"<small>({escape(study.name)})</small>")
        bands = band_counts(study.reproduction)
        claims = (f"{v.claims['held']} / {v.claims['not_held']} / {v.claims['not_checked']}"
                  if study.claims else "none")
        lines.append(row([
            td(link), num(str(v.run)), num(str(v.failed), "off" if v.failed else ""),
            num(str(v.not_run)),
            *(num(str(v.states[s]), "off" if s == "broken" and v.states[s] else "")
              for s in ("kept", "broken", "not_checked", "explained")),
            num(f"{bands.printed_out} of {bands.printed}" if bands.printed else "–",
                "off" if bands.printed_out else ""),
            num(f"{bands.reproducing_out} of {bands.reproducing}" if bands.reproducing else "–",
                "off" if bands.reproducing_out else ""),
            num(str(bands.round_off) if study.reproduction else "–"),
            num(claims, "off" if v.claims["not_held"] else "")]))
    return ('<h2 id="at-a-glance">At a glance</h2>'
            + table(("study", "cases run", "failed", "n/a or skipped", "✓ kept", "✗ broken",
                     "? not checked", "≈ explained", "printed settings out of band",
                     "reproducing settings out of band", "round-off rows (no band)",
                     "claims held / not held / not checked"), lines, "glance")
            + '<p class="note">The verdicts are verdicts.csv\'s, one per promise of each '
            "integrator in each experiment: kept (measured and held), broken (measured and not "
            "held), not checked (could not be measured, and why) or explained (a known "
            "deviation). A reproduction row is out of band when reproduction.csv says so "
            "(in_band); a ratio of two round-off numbers is at round-off level and has no band."
            "</p>")


def _not_checked_line(study: Study) -> str:
    """How many promises could not be checked, by why."""
    why = Counter(r["why"] for r in study.verdicts if r["state"] == "not_checked")
    if not why:
        return ""
    return ("Not checked: " + ", ".join(f"{n} {WHY.get(w, w) or w}" for w, n in why.most_common())
            + ".")


def _broken(study: Study) -> str:
    """verdicts.csv's broken rows, each linked to its experiment's verdicts on the study's
    page."""
    broken = [r for r in study.verdicts if r["state"] == "broken"]
    if not broken:
        return '<p class="clean">None: no promise was measured and not held.</p>'
    lines = []
    for r in broken:
        href = f"{page_shell.study_file(study)}#{verdicts_anchor(study, r['experiment'])}"
        lines.append(f'<li><a href="{escape(href)}">{escape(r["experiment"])}</a>: '
                     f"<b>{escape(r['integrator'])}</b> {escape(r['promise'])} "
                     f"{page_shell.verdict_badge(r)} {escape(fmt_value(r))} "
                     f"(bound {escape(fmt_bound(r))}): {escape(r['reason'])}</li>")
    return f'<ul class="broken">{"".join(lines)}</ul>'


def _section(study: Study, v: Verdict) -> str:
    page = escape(page_shell.study_file(study))
    links = f'<a href="{page}">the study\'s page</a>'
    if matrix_verdict.is_matrix(study):
        links += f' · <a href="{escape(page_shell.matrix_file(study))}">the matrix page</a>'
    counts = ", ".join(f"{v.states[s]} {STATES[s][1]}"
                       for s in ("kept", "broken", "not_checked", "explained"))
    parts = [f'<section id="{escape(study.slug)}">',
             f'<h2><a href="{page}">{escape(study.title)}</a> '
             f"<small>({escape(study.name)})</small></h2>",
             f"<p>{v.run} cases run, {v.failed} failed"
             + (f", {v.not_run} n/a or skipped" if v.not_run else "") + f". Promises: {counts}. "
             + escape(_not_checked_line(study)) + f" {links}</p>"]
    failed = [c for c in study.cases if c["status"] not in ("ok", "n/a", "skipped")]
    if failed:
        parts.append(notes([f"Failed: {case['experiment']}, {case_label(case)}: "
                            f"{status_text(case)}" for case in failed[:FAILED_SHOWN]]
                           + ([f"and {len(failed) - FAILED_SHOWN} more on the study's page"]
                              if len(failed) > FAILED_SHOWN else [])))
    if study.reproduction:
        parts += ["<h3>Reproduction</h3>", reproduction_table(study.reproduction)]
    if study.claims:
        parts += ["<h3>Claims</h3>", claims_table(study.claims)]
    parts += ["<h3>Promises broken</h3>", _broken(study), "</section>"]
    return "\n".join(parts)

