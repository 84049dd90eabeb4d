"""The report's HTML pages: their file names and the frame every page shares (head, style,
the way back to the index).

index.html holds the verdict of every study; each study has a page of its own, <slug>.html, and
a matrix study also <slug>-matrix.html. Study slugs are unique and never "index"
(make_report.load_studies), so no two pages share a name.
"""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Iterable

from formatting import CLAIM_STATES, STATES, state_words, verdict_state
from results import Row, Study, slug

INDEX = "index.html"

CSS = """
body { font-family: sans-serif; margin: 2em; max-width: 110em; color: #222; }
nav { font-size: 0.9em; margin-bottom: 1em; }
h2 { border-bottom: 2px solid #444; margin-top: 2.5em; }
h3 { margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
th { background: #eee; }
td.num { text-align: right; font-family: monospace; white-space: nowrap; }
.scroll { overflow-x: auto; }
tr.failed td { background: #fde2e2; }
tr.reproducing td { background: #e8f0fe; }
.tag { background: #1a56c4; color: #fff; border-radius: 3px; padding: 0 0.3em;
       font-size: 0.85em; white-space: nowrap; }
.off { color: #c00; font-weight: bold; }
.below { color: #888; font-style: italic; }
.note { color: #555; font-size: 0.9em; }
.warning { background: #fff4d6; border-left: 4px solid #e69f00; padding: 0.2em 0.5em; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; }
figure { display: inline-block; margin: 0.5em 1em 0.5em 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
.v { display: inline-block; padding: 0 0.35em; border-radius: 3px; white-space: nowrap; }
.v-kept { background: #0072b2; color: #fff; }
.v-broken { background: #d55e00; color: #fff; }
.v-not_checked { background: #f0e442; color: #000; }
.v-explained { background: #cc79a7; color: #000; }
.v-na { background: #e4e4e4; color: #555; }
.v-no_promise { background: #fff; color: #333; }
"""


def study_file(study: Study) -> str:
    """The file name of the study's own page."""
    return f"{study.slug}.html"


def matrix_file(study: Study) -> str:
    """The file name of a matrix study's matrix page."""
    return f"{study.slug}-matrix.html"


def experiment_anchor(study: Study, experiment: str) -> str:
    """The id of an experiment's section on its study's page."""
    return f"{study.slug}-{slug(experiment)}"


def write_page(path: Path, title: str, body: str, css: str = "", script: str = "") -> None:
    """A whole page: title, the shared style plus css, a link back to the index (but on the
    index), body, then script (inline, after the elements it works on)."""
    back = "" if path.name == INDEX else f'<nav><a href="{INDEX}">&larr; geomint report</a></nav>'
    tail = f"<script>{script}</script>" if script else ""
    path.write_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)}</title><style>{CSS}{css}</style></head><body>"
        f"{back}{body}{tail}</body></html>\n", encoding="utf-8")


# Tables: every text goes through escape before it reaches these; numbers are right-aligned.

def table(headers: Iterable[str], rows: list[str], css_class: str = "") -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    opening = f'<table class="{css_class}">' if css_class else "<table>"
    return f'<div class="scroll">{opening}<tr>{head}</tr>{"".join(rows)}</table></div>'


def row(cells: list[str], css_class: str = "") -> str:
    return f'<tr class="{css_class}">{"".join(cells)}</tr>' if css_class else \
        f'<tr>{"".join(cells)}</tr>'


def td(markup: str) -> str:
    return f"<td>{markup}</td>"


def num(text: str, css_class: str = "", title: str = "") -> str:
    """A right-aligned numeric cell, optionally highlighted and with a tooltip."""
    attributes = f' title="{escape(title)}"' if title else ""
    return f'<td class="{f"num {css_class}".strip()}"{attributes}>{escape(text)}</td>'


def badge(state: str, words: str, title: str = "") -> str:
    """A state's symbol and words in its colours (page_shell.CSS's .v-<state>); state is a key
    of formatting.STATES."""
    attributes = f' title="{escape(title)}"' if title else ""
    return (f'<span class="v v-{state}"{attributes}>{STATES[state][0]} {escape(words)}</span>')


def verdict_badge(row: Row) -> str:
    """A verdicts.csv row's state, e.g. "✓ kept, converging from above"."""
    return badge(verdict_state(row), state_words(row))


def claim_badge(row: Row) -> str:
    """A claims.csv row's state: held (as kept), not held (as broken) or not checked."""
    state, words = CLAIM_STATES[row["state"]]
    return badge(state, words)


def notes(lines: list[str]) -> str:
    if not lines:
        return ""
    return '<ul class="note">' + "".join(f"<li>{escape(n)}</li>" for n in lines) + "</ul>"
