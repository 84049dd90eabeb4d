"""Number formatting, and the words and symbols of the verdicts, shared by the pages, the
summary and the figures.

Keeping them in one place makes index.html, summary.md and the figure legends agree on how a
number is printed and how a verdict is named. Nothing here judges: verdicts.csv gives each
promise's state, reproduction.csv each row's band (docs/result-files.md).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from results import Row


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


# The band a reproduction ratio (ours / published) must lie in, as docs/result-files.md gives it;
# only quoted in notes: reproduction.csv's in_band says whether a row is in it.
RATIO_BAND = (0.75, 1.25)


def fmt_ratio(x: float | None) -> str:
    """A reproduction ratio as fmt_float, with more digits where four would put it on an edge
    of RATIO_BAND it is not on (0.74998 is out of band, and must not read 7.500e-01)."""
    if x is None or not math.isfinite(x):
        return fmt_float(x)
    for digits in range(3, 16):
        text = f"{x:.{digits}e}"
        shown = float(text)
        if all((shown < edge) == (x < edge) and (shown > edge) == (x > edge)
               for edge in RATIO_BAND):
            return text
    return repr(x)


def band(row: Row) -> str:
    """A reproduction row's band, as reproduction.csv gives it: "round_off" (a ratio of two
    round-off numbers: no band verdict), "in" or "out"."""
    if row["round_off"]:
        return "round_off"
    return "in" if row["in_band"] == 1 else "out"


def band_text(row: Row) -> str:
    """What the report says of a reproduction row's band."""
    kind = band(row)
    if kind == "round_off":
        return "round-off level"
    if kind == "in":
        return "in band"
    return "reproducing setting, out of band" if row["role"] == "reproducing" else "out of band"


@dataclass(frozen=True)
class BandCounts:
    """A study's reproduction rows by role and band; round-off rows are counted apart."""

    printed: int  # printed rows with a band verdict
    printed_out: int
    reproducing: int  # reproducing rows with a band verdict
    reproducing_out: int
    round_off: int  # rows of either role at round-off level, in no band count

    def text(self) -> str:
        if not (self.printed or self.reproducing or self.round_off):
            return "none"
        parts = [f"printed: {self.printed_out} of {self.printed} out of band",
                 f"reproducing: {self.reproducing_out} of {self.reproducing} out of band"]
        if self.round_off:
            parts.append(f"{self.round_off} at round-off level (not counted)")
        return "; ".join(parts)


def band_counts(rows: list[Row]) -> BandCounts:
    banded = [r for r in rows if band(r) != "round_off"]
    printed = [r for r in banded if r["role"] != "reproducing"]
    reproducing = [r for r in banded if r["role"] == "reproducing"]
    return BandCounts(len(printed), sum(band(r) == "out" for r in printed), len(reproducing),
                      sum(band(r) == "out" for r in reproducing), len(rows) - len(banded))


# The verdict states (verdicts.csv's `state`, and "na" for a not-checked row whose why is n/a)
# with the symbol and the words every page shows them in; their colours are page_shell.CSS's
# .v-<state> (STYLE.md 13: fixed across every page). A check mark is for "kept" alone.
STATES = {"kept": ("✓", "kept"), "broken": ("✗", "broken"),
          "not_checked": ("?", "not checked"), "explained": ("≈", "explained"),
          "na": ("–", "n/a"), "no_promise": ("○", "no promise")}
# claims.csv's states, drawn as the verdict state they correspond to.
CLAIM_STATES = {"held": ("kept", "held"), "not_held": ("broken", "not held"),
                "not_checked": ("not_checked", "not checked")}
# verdicts.csv's `why`, in words.
WHY = {"nominal": "", "from_above": "converging from above", "below_nominal": "below nominal",
       "n/a": "n/a", "adaptive": "adaptive", "no_reference": "no reference",
       "too_few_steps": "too few step sizes", "failed": "no case finished",
       "no_window": "no asymptotic window", "no_scale": "no scale", "non_finite": "not finite",
       "drift": "a significant drift",
       "too_short": "too short a run to fit a growth", "no_statistics": "no long-time statistics",
       "not_run": "not run forward and back"}
# What each promise's value is (docs/result-files.md, verdicts.csv); bounds come from the rows.
PROMISE_VALUES = {
    "order": "the fitted order in the asymptotic window (orders.csv)",
    "manifold": "the largest manifold defect over the finished cases (manifold_defect_max)",
    "momentum": "the largest relative change of the conserved momentum maps "
                "(momentum_rel_err_max)",
    "energy": "the largest relative change of the energy over the run (energy_rel_err_max)",
    "long_energy": "the growth exponent alpha of the energy error's envelope over the long run "
                   "(0 bounded, 1/2 a random walk, 1 a drift)",
    "long_momentum": "the largest change of a conserved momentum map over the long run, in ULPs "
                     "of max(1, |J(0)|) per square root of the steps",
    "long_manifold": "the largest manifold defect over the long run, in ULPs per square root of "
                     "the steps",
    "reversibility": "the distance from y(0) after N steps forward and N back, in ULPs of "
                     "max(1, |y(0)|) per square root of N"}


def verdict_state(row: Row) -> str:
    """The state a verdict row is drawn as: its state, or "na" when it is not checked because
    the model lacks the view the integrator needs."""
    return "na" if row["state"] == "not_checked" and row["why"] == "n/a" else row["state"]


def state_words(row: Row) -> str:
    """E.g. "kept", "kept, converging from above", "not checked: no asymptotic window"."""
    state = verdict_state(row)
    words = STATES[state][1]
    why = WHY.get(row["why"], row["why"].replace("_", " "))
    if not why or state == "na":
        return words
    return f"{words}, {why}" if state == "kept" else f"{words}: {why}"


def verdict_counts(rows: list[Row]) -> dict[str, int]:
    """The rows by verdicts.csv's state (n/a rows are not_checked ones), every state present."""
    counts = {state: 0 for state in STATES if state not in ("na", "no_promise")}
    for row in rows:
        counts[row["state"]] += 1
    return counts


def fmt_correlation(x: float | None) -> str:
    """A correlation near 1 says how close to a line a fit's points are: six decimals."""
    return "" if x is None else "nan" if math.isnan(x) else f"{x:.6f}"


def fmt_bound(row: Row) -> str:
    """A verdict's or claim's bound with its relation, e.g. "≥ 3.8", "≤ 1e-12"."""
    if row["bound"] is None:
        return ""
    relation = {">=": "≥ ", "<=": "≤ "}.get(row["relation"], "")
    return relation + f"{row['bound']:.4g}"


def fmt_value(row: Row) -> str:
    """A verdict's value: a finite order to two decimals, anything else as fmt_float ("" when
    there is none, "nan" when it could not be computed)."""
    value = row["value"]
    if row["promise"] == "order" and value is not None and math.isfinite(value):
        return f"{value:.2f}"
    return fmt_float(value)


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
