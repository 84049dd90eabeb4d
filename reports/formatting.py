"""Number formatting and highlighting rules shared by the page, the summary and the figures.

Keeping them in one place makes index.html, summary.md and the figure legends agree on
how a number is printed and on which rows count as suspicious.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from results import Row

RATIO_BAND = (0.75, 1.25)
ORDER_TOLERANCE = 0.2


def fmt_float(x: float | None) -> str:
    """Scientific notation with 4 significant digits; "" for not applicable (None)."""
    if x is None:
        return ""
    if math.isnan(x):
        return "nan"
    return f"{x:.3e}"


def fmt_count(x: float | None) -> str:
    """Counts are integers in the files but arrive as floats; print them without a point."""
    if x is not None and math.isfinite(x) and x == int(x):
        return str(int(x))
    return fmt_float(x)


def fmt_order(x: float | None) -> str:
    """Convergence orders are compared with small integers, so two decimals read best."""
    if x is None:
        return ""
    return "n/a" if math.isnan(x) else f"{x:.2f}"


def case_label(case: Row) -> str:
    """Integrator plus the setting that distinguishes its cases: h, or the tolerances when
    adaptive (both: a run at rtol 1e-12 may be controlled by its atol)."""
    if case["h"] is not None:
        return f"{case['integrator']} h={case['h']:.4g}"
    if case["rtol"] is not None:
        label = f"{case['integrator']} rtol={case['rtol']:.4g}"
        if case.get("atol") is not None:
            label += f" atol={case['atol']:.4g}"
        return label
    return str(case["integrator"])


def status_text(case: Row) -> str:
    """The failure kind with the time it happened and the message, e.g. for notes."""
    text = str(case["status"])
    if case["fail_time"] is not None:
        text += f" at t={fmt_float(case['fail_time'])}"
    if case["status_detail"]:
        text += f": {case['status_detail']}"
    return text


def ratio_out_of_band(row: Row) -> bool:
    """A printed setting reproduces when ours/published lies in RATIO_BAND.

    A missing or nan ratio is flagged too: the row could not be checked.
    """
    ratio = row["ratio"]
    return row["role"] == "printed" and not (
        ratio is not None and RATIO_BAND[0] <= ratio <= RATIO_BAND[1])


def order_deviates(row: Row) -> bool:
    """True when a fixed-step method's fitted order is off its nominal one by more than
    ORDER_TOLERANCE. An adaptive method's slope against the mean step is not an order, so it
    is never flagged."""
    fitted, nominal = row["fitted_order"], row["nominal_order"]
    return (row["abscissa"] == "h" and fitted is not None and nominal is not None
            and abs(fitted - nominal) > ORDER_TOLERANCE)


def manifest_facts(manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """What ran and where, as (label, text) pairs; absent manifest keys give empty text."""
    def get(*keys: str) -> str:
        value: Any = manifest
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        return "" if value is None else str(value)

    wall = manifest.get("wall_s")
    cores = get("machine", "cores")
    machine = (get("machine", "hostname"), get("machine", "cpu"), cores and f"{cores} cores")
    return [
        ("Spec file", get("spec_file")),
        ("Git revision", get("git_revision")),
        ("Compiler", " ".join(filter(None, (get("compiler"), get("build_type"),
                                            get("flags"))))),
        ("SUNDIALS", ", ".join(filter(None, (get("sundials", "version"),
                                             get("sundials", "build"))))),
        ("Machine", ", ".join(filter(None, machine))),
        ("Ran", f"{get('started')} to {get('finished')}"),
        ("Wall time", f"{wall:.4g} s" if isinstance(wall, (int, float)) else ""),
        ("Cases", f"{get('cases')} ({get('failed')} failed)"),
    ]


# cases.csv's family (integrators/declaration.hpp), geometric ones first. The classical methods
# (RK2, RK4, Dormand-Prince as ode45, with and without reprojection) and the reference solvers
# (CVODE, ARKODE, Boost.Odeint) are the peers the geometric integrators are measured against:
# the figures draw them in greys, the heat map puts their columns last.
FAMILIES = {"variational": "variational", "constrained_variational": "constrained variational",
            "lie_group": "Lie group", "symplectic_lie_group": "symplectic Lie group",
            "classical": "classical (peers)", "reference": "reference solvers (peers)"}
PEER_FAMILIES = ("classical", "reference")


def family_rank(family: str) -> int:
    """Where a family's integrators go among the others: FAMILIES' order, unknown ones last."""
    return list(FAMILIES).index(family) if family in FAMILIES else len(FAMILIES)


# Integrators backed by SUNDIALS (reference/cvode.hpp, reference/arkode.hpp).
SUNDIALS_SOLVERS = ("cvode_", "arkode_")
UNOPTIMISED_MARK = "\u2020"


@dataclass(frozen=True)
class TimingMark:
    """Marks the CPU times of SUNDIALS solvers when the study ran with an unoptimised SUNDIALS.

    Debian's SUNDIALS package is compiled without optimisation, which makes CVODE and ARKODE
    up to about 3x slower than an optimised build of the same version (README.md, "Optimised
    SUNDIALS"): their times are not comparable with those of our integrators, built at -O3.
    """

    footnote: str | None  # None: the build was optimised, nothing is marked

    def of(self, integrator: str) -> str:
        """The mark to put after a CPU time (or a label of one) of this integrator, or ""."""
        marked = self.footnote is not None and integrator.startswith(SUNDIALS_SOLVERS)
        return UNOPTIMISED_MARK if marked else ""

    def footnotes(self, integrators: list[str]) -> list[str]:
        """The footnote, once, if any of these integrators is marked."""
        return [self.footnote] if self.footnote and any(map(self.of, integrators)) else []


def timing_mark(manifest: dict[str, Any]) -> TimingMark:
    """From the manifest's "sundials": its "optimised" flag, or for manifests written before
    it existed, whether the build was Debian's package (then the only one there was)."""
    sundials = manifest.get("sundials")
    if not isinstance(sundials, dict):
        return TimingMark(None)
    build = str(sundials.get("build", ""))
    optimised = sundials.get("optimised")
    if optimised is True or (optimised is None and not build.startswith("debian")):
        return TimingMark(None)
    origin = ("from Debian's package, built without optimisation" if build.startswith("debian")
              else f"not optimised ({build})")
    return TimingMark(f"{UNOPTIMISED_MARK} SUNDIALS {origin}: CVODE/ARKODE times are up to "
                      "~3x slower than an optimised build (see scripts/build-sundials)")
