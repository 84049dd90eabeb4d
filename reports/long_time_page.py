"""The long-run section of a long-time matrix's page (long_time.is_long_time): what α is and
which promises are judged, a second heat map of the same cells coloured by the energy error's
growth exponent α, and per model the figure of its errors' envelopes (long_time_figures.py).

The second heat map is the first's grid (heat_map.grid_table: rows, columns, headers, detail
panel); only its cells differ. A cell's colour is its energy α on a diverging scale, green
below ½ (bounded at 0), near white at ½ (a random walk), purple above (a drift at 1); grey and
hatched where α was not measured (no conserved energy, a failed case, a run too short); an n/a
pair as on every page. Its symbol is its verdict state, as in the first map; its label α to one
decimal. Its hover text gives α ± its standard error for the energy and for the largest manifold
defect, and the state of each promise. The colours stay clear of the verdicts' Okabe-Ito hues
(ColorBrewer's PRGn, readable under the common colour-vision deficiencies).
"""
from __future__ import annotations

import math
from html import escape

import matplotlib
from matplotlib.colors import Normalize, to_hex

import heat_map
import long_time
from figures import ExperimentFigures
from formatting import FAMILIES, STATES, case_label, fmt_float, state_words, verdict_state
from long_time_figures import PLOT
from matrix_verdict import Cell, Grid
from results import LongTime, LongTimeQuantity, Row, Study, slug

COLOURS = matplotlib.colormaps["PRGn_r"]
# The legend's marks on the colour scale: α, as written, what it means, the mark's class (the
# ends align inwards). Beyond the ends, α takes the ends' colours.
MARKS = ((-0.5, "≤ −0.5", "shrinking", "low"), (0.0, "0", "bounded", "mid"),
         (0.5, "½", "a random walk", "mid"), (1.0, "1", "a drift", "mid"),
         (1.5, "≥ 1.5", "faster", "high"))
SCALE = Normalize(MARKS[0][0], MARKS[-1][0])
NOT_MEASURED = "repeating-linear-gradient(45deg, #c8c8c8 0 3px, #e8e8e8 3px 6px)"

STYLE = f"""
td.a-none {{ background: {NOT_MEASURED}; color: #333; }}
.alpha-legend {{ display: flex; flex-wrap: wrap; align-items: flex-start; gap: 0.5em 2em;
                 margin: 0.5em 0 1.8em; font-size: 0.9em; }}
.alpha-scale {{ position: relative; width: 36em; height: 3.6em; }}
.alpha-bar {{ height: 1.1em; border: 1px solid #888; }}
.alpha-scale span {{ position: absolute; top: 1.5em; transform: translateX(-50%);
                     text-align: center; line-height: 1.1; white-space: nowrap; }}
.alpha-scale span.low {{ transform: none; text-align: left; }}
.alpha-scale span.high {{ transform: translateX(-100%); text-align: right; }}
.alpha-scale span::before {{ content: ""; position: absolute; left: 50%; top: -0.45em;
                             height: 0.35em; border-left: 1px solid #444; }}
.alpha-scale span.low::before {{ left: 0; }}
.alpha-scale span.high::before {{ left: auto; right: 0; }}
.swatch {{ display: inline-block; min-width: 1.6em; text-align: center; border: 1px solid #888;
           margin-right: 0.3em; font-family: monospace; }}
figure.envelopes {{ display: block; margin: 1em 0; }}
figure.envelopes figcaption {{ font-weight: bold; margin-bottom: 0.3em; }}
"""


def section_html(study: Study, cells: Grid, figures: dict[str, ExperimentFigures]) -> str:
    """The long-run section: what is measured and judged, the α heat map, the figures."""
    return ('<h2 id="long-run">Long run: growth exponents</h2>' + explanation_html()
            + alpha_legend()
            + heat_map.grid_table(study, cells, figures,
                                  lambda cell, family: alpha_cell(study, cell, family),
                                  "alpha-map")
            + '<p class="note">The same cells as the heat map above, coloured by the energy '
            "error's α of the case at the finest setting; the symbol is the cell's state, the "
            "label α. Hover a cell for α ± its standard error, of the energy and of the largest "
            "manifold defect, and each promise's state; click it for the links to the model's "
            "figures.</p>"
            + '<h2 id="envelopes">Long run: envelopes by model</h2>'
            + envelopes_html(cells, figures))


def explanation_html() -> str:
    """What α is, and which of the long run's numbers are promised."""
    return (
        "<p>Over the long run each case follows its energy's change, each conserved momentum "
        "map's and Casimir's change and every manifold defect, per logarithmic time bin (ten a "
        "decade). <b>α</b> is the growth exponent of an error's envelope, |err|(t) ~ t<sup>α"
        "</sup>: the least-squares slope of log max |err| per bin against log t over the bins "
        "of the run's last two decades that start at or after 100 t<sub>1</sub>, "
        "t<sub>1</sub> its first output time (after the first 100 steps of a fixed-step "
        "method). About 0 means bounded, about ½ a random walk (round-off, "
        "Brouwer's law), about 1 a linear drift. Four promises are judged over the long run: "
        "<b>long_energy</b> (a symplectic method's energy error, by its α and its drift), "
        "<b>long_momentum</b> (a symplectic method's conserved momentum maps), "
        "<b>long_manifold</b> (the manifold defects of a method that stays on the manifold) "
        "and <b>reversibility</b> (a symmetric fixed-step method, N steps forward and N back); "
        "their bounds are under Promises below (verdicts.csv's). Everything else, every other "
        "method's α and drift, the Casimirs and the envelopes, is measured and shown without a "
        "promise.</p>")


def alpha_colour(alpha: float) -> tuple[str, str]:
    """The background of a cell with this α and the text colour that reads on it."""
    red, green, blue, _ = COLOURS(SCALE(alpha))
    light = 0.299 * red + 0.587 * green + 0.114 * blue > 0.5
    return to_hex((red, green, blue)), "#000" if light else "#fff"


def alpha_legend() -> str:
    """The colour scale with what its marks mean, and the cells without a colour."""
    low, high = SCALE.vmin, SCALE.vmax
    stops = ", ".join(alpha_colour(low + (high - low) * k / 8)[0] for k in range(9))
    marks = "".join(f'<span class="{end}" style="left: {100 * SCALE(alpha):.0f}%">α {value}<br>'
                    f"{escape(words)}</span>" for alpha, value, words, end in MARKS)
    return ('<div class="alpha-legend"><div class="alpha-scale">'
            f'<div class="alpha-bar" style="background: linear-gradient(to right, {stops})">'
            f"</div>{marks}</div>"
            f'<div><span class="swatch" style="background: {NOT_MEASURED}">&nbsp;</span>'
            "α not measured: no conserved energy, a failed case, a run too short</div>"
            f'<div><span class="swatch v-na">{STATES["na"][0]}</span>n/a: the model lacks the '
            "view the integrator needs</div></div>")


def alpha_cell(study: Study, cell: Cell, family: str) -> str:
    """A cell of the α heat map (see the module's comment)."""
    state = cell.state
    heading = (f"{cell.model} × {cell.integrator} ({FAMILIES.get(family, family)}): "
               f"{STATES[state][1]}")
    symbol = f"<i>{STATES[state][0]}</i>"
    if state == "na":
        title = heat_map.title_attribute([heading, cell.verdicts[0]["reason"] or "n/a"])
        return f'<td class="c v-na" tabindex="0" title="{title}">{symbol}</td>'
    case, stats = long_time.cell_case(study, cell)
    lines = [heading] + _growth_lines(case, stats) + [
        f"{row['promise']}: {STATES[verdict_state(row)][0]} {state_words(row)}"
        for row in cell.verdicts]
    title = heat_map.title_attribute(lines)
    energy = long_time.energy(stats) if stats else None
    if case is None or case["status"] != "ok" or energy is None or not math.isfinite(energy.alpha):
        return f'<td class="c a-none" tabindex="0" title="{title}">{symbol}</td>'
    background, text = alpha_colour(energy.alpha)
    return (f'<td class="c" style="background: {background}; color: {text}" tabindex="0" '
            f'title="{title}">{symbol}{_one_decimal(energy.alpha)}</td>')


def _one_decimal(alpha: float) -> str:
    """α as the cell's label: one decimal, and 0.0 rather than -0.0 for a small negative α
    (the hover has its digits)."""
    return f"{round(alpha, 1) + 0.0:.1f}"


def _growth_lines(case: Row | None, stats: LongTime | None) -> list[str]:
    """The case's setting and status, then the energy's and the largest manifold defect's α."""
    if case is None:
        return ["not run"]
    ran = f"{case_label(case)}: {case['status']}"
    if case["status"] != "ok":
        ran += f" at t = {fmt_float(case['fail_time'])} (the α below: of the run up to it)"
    if stats is None:
        return [ran, "no long-time statistics"]
    return [ran, _growth("energy", long_time.energy(stats), "the exact flow conserves none"),
            _growth("largest manifold defect", long_time.largest_defect(stats),
                    "the model declares none")]


def _growth(what: str, quantity: LongTimeQuantity | None, missing: str) -> str:
    """E.g. "energy: α = 0.976 ± 0.014 over t in [1, 1000], max |err| 2.878e-01"."""
    if quantity is None:
        return f"{what}: none, {missing}"
    named = what if quantity.name == what else f"{what} ({quantity.name})"
    largest = f"max |err| {fmt_float(quantity.abs_max)}"
    if not math.isfinite(quantity.alpha):
        return f"{named}: α not measured ({quantity.alpha_note or 'not finite'}), {largest}"
    return (f"{named}: α = {quantity.alpha:.3g} ± {quantity.alpha_se:.2g} over t in "
            f"[{quantity.fit_from:g}, {quantity.fit_to:g}], {largest}")


def envelopes_html(cells: Grid, figures: dict[str, ExperimentFigures]) -> str:
    """Each model's figure of envelopes, in the heat map's row order, with their notes once."""
    parts, notes = [], {}
    for experiment in cells.rows:
        name = experiment["name"]
        drawn = [f for f in (figures[name].figures if name in figures else []) if f.plot == PLOT]
        model = escape(str(experiment.get("model") or name))
        for figure in drawn:
            notes.update(dict.fromkeys(figure.notes))
            if figure.stem is None:
                continue
            src = escape(figure.stem)
            parts.append(f'<figure class="envelopes" id="long-run-{escape(slug(name))}">'
                         f"<figcaption>{model}</figcaption>"
                         f'<a href="{src}.svg"><img src="{src}.png" '
                         f'alt="{model}: envelopes of the long run\'s errors"></a></figure>')
    listed = "".join(f"<li>{escape(note)}</li>" for note in notes)
    return "".join(parts) + (f'<ul class="note">{listed}</ul>' if listed else "")
