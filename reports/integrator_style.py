"""One fixed style (colour, marker, line) per integrator, the same in every figure of every study.

A reader compares figures: rkmk4 must look the same in the convergence plot of one model and in
the work-precision plot of another, whatever other integrators those figures show. So a style
is a function of the integrator alone, through the catalogue every manifest lists (its
"catalogue": every catalogued integrator in catalogue order, with its family):

- the colour's hue says the family (HUES): variational blues, Lie group greens and teals,
  symplectic Lie group purples, constrained variational oranges and browns, the classical peers
  reds, the reference solvers greys and black;
- within a family, the k-th integrator (in catalogue order) takes shade k mod (its shades) and
  marker k mod len(MARKERS). len(MARKERS) is prime to every family's number of shades, so no two
  integrators of a family share both until k reaches their product (77 for the Lie group
  methods): the ~17 Lie group methods stay apart by colour and marker;
- peers (formatting.PEER_FAMILIES) join their points with dash-dot lines, the geometric
  integrators with solid ones; a case's h or rtol is a shade of its integrator's colour
  (setting_shades);
- an integrator the catalogue does not list (a user method defined in a spec) takes its shade
  and marker from USER_HUES, picked by a checksum of its name: the same in every figure;
- a manifest without a catalogue (written before the field existed) gives the same hues, the
  k-th integrator of a family being its k-th to appear in the study's cases.

Every marker is a filled one, so that a figure can draw a point hollow (or half filled) to
mark it.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from matplotlib.colors import to_hex, to_rgb

from formatting import FAMILIES, PEER_FAMILIES, family_rank
from results import Row

# Shades per family, each readable on white; the Lie group methods, the most numerous, have
# the most (methods often compared, rkmk4 and cf4, differ in shade, not only in marker).
HUES = {
    "variational": ("#08306b", "#2171b5", "#6baed6"),
    "lie_group": ("#00441b", "#31a354", "#a1d76a", "#00796b", "#80cbc4", "#6b8e23", "#20b2aa"),
    "symplectic_lie_group": ("#3f007d", "#6a51a3", "#a17bc9", "#88419d"),
    "constrained_variational": ("#d95f0e", "#8c510a", "#fe9929"),
    "classical": ("#b2182b", "#ef3b2c", "#67000d"),
    "reference": ("#000000", "#4d4d4d", "#808080", "#b3b3b3"),
}
# Methods outside the catalogue: hues no family uses (pink, gold).
USER_HUES = ("#e7298a", "#c9a800")
USER_GROUP = "user"  # the legend group of the methods outside the catalogue
# Eleven filled markers: 11 is prime to every number of shades above.
MARKERS = ("o", "^", "s", "D", "v", "P", "X", "*", "<", ">", "p")
GEOMETRIC_LINE, PEER_LINE = "-", "-."
# A case's shade lightens towards white by up to this fraction (see setting_shades).
LIGHTEST = 0.5


@dataclass(frozen=True)
class Style:
    """How one integrator is drawn; group and rank order it in a legend."""

    color: str  # "#rrggbb"
    marker: str
    line: str  # the line through its points (work-precision) or its fitted slope (convergence)
    group: str  # its family, or USER_GROUP for a method outside the catalogue
    rank: tuple[int, int, str]  # legend order: group, then catalogue order, then name


class Styles:
    """The styles of one study's integrators: from its manifest's catalogue when it has one,
    else from the order in which each family's integrators first appear in its cases."""

    def __init__(self, manifest: dict[str, Any], cases: list[Row]) -> None:
        catalogue = catalogue_of(manifest)
        listed = catalogue if catalogue is not None else list(
            dict.fromkeys((c["integrator"], c["family"]) for c in cases))
        self._styles: dict[str, Style] = {}
        counts: dict[str, int] = {}
        for name, family in listed:
            if name in self._styles or family not in HUES:
                continue
            index = counts.get(family, 0)
            counts[family] = index + 1
            self._styles[name] = _family_style(family, index, name)

    def of(self, integrator: str) -> Style:
        """The integrator's style; one outside the catalogue (or, without a catalogue, of an
        unknown family) gets a user style, picked by its name."""
        style = self._styles.get(integrator)
        return style if style is not None else user_style(integrator)


def catalogue_of(manifest: dict[str, Any]) -> list[tuple[str, str]] | None:
    """(name, family) of every catalogued integrator in catalogue order, or None when the
    manifest has no catalogue; malformed entries are skipped."""
    catalogue = manifest.get("catalogue")
    if not isinstance(catalogue, list):
        return None
    return [(entry["name"], entry["family"]) for entry in catalogue
            if isinstance(entry, dict) and isinstance(entry.get("name"), str)
            and isinstance(entry.get("family"), str)]


def _family_style(family: str, index: int, name: str) -> Style:
    shades = HUES[family]
    line = PEER_LINE if family in PEER_FAMILIES else GEOMETRIC_LINE
    return Style(shades[index % len(shades)], MARKERS[index % len(MARKERS)], line, family,
                 (family_rank(family), index, name))


def user_style(name: str) -> Style:
    """A method outside the catalogue: shade and marker from a checksum of its name (crc32,
    not hash(), which Python salts per process)."""
    code = zlib.crc32(name.encode("utf-8"))
    return Style(USER_HUES[code % len(USER_HUES)],
                 MARKERS[(code // len(USER_HUES)) % len(MARKERS)], GEOMETRIC_LINE, USER_GROUP,
                 (len(FAMILIES) + 1, 0, name))


def group_title(group: str) -> str:
    """A legend group's header, e.g. "Lie group:"."""
    return "user methods (not catalogued):" if group == USER_GROUP else f"{FAMILIES[group]}:"


def setting_shades(color: str, settings: list[float]) -> dict[float, str]:
    """One shade of color per setting (h or rtol) of one integrator in a figure: the smallest
    setting in the colour itself, larger ones lighter, the largest mixed LIGHTEST with white."""
    ordered = sorted(set(settings))
    top = max(len(ordered) - 1, 1)
    return {value: lighten(color, LIGHTEST * k / top) for k, value in enumerate(ordered)}


def lighten(color: str, amount: float) -> str:
    """color mixed with white: amount 0 is color, 1 is white."""
    rgb = to_rgb(color)
    return to_hex(tuple(c + (1.0 - c) * amount for c in rgb))
