"""Load and validate one result directory, as specified in docs/result-files.md.

Numeric columns become floats, an empty field becomes None ("not applicable") and
"nan" becomes float("nan") ("could not be computed"), so callers can tell the two
apart. Anything malformed raises ResultError with a message naming the file.
"""
from __future__ import annotations

import csv
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

Value = Any  # str for text columns, float | None for numeric ones
Row = dict[str, Value]
Series = dict[str, list[float | None]]
Columns = tuple[list[float | None], dict[str, list[float | None]]]  # times, {name: values}
Points = tuple[list[float | None], dict[str, list[list[float | None]]]]  # times, {name: [xs, ys, zs]}

CASE_TEXT = ("study", "model", "integrator", "status", "experiment", "case_id", "family",
             "status_detail")
CASE_NUMBERS = ("h", "rtol", "atol", "T", "steps", "rejected", "f_evals", "cpu_s",
                "global_err", "energy_err_max", "energy_err_mean", "energy_drift_per_time",
                "momentum_err_max", "manifold_err_max", "tangency_err_max", "nominal_order",
                "mean_step", "unit_length_err_mean", "fail_time", "below_reference")
# Columns added later: results written before them lack them, read as None (not applicable).
CASE_OPTIONAL_NUMBERS = ("cpu_repetitions", "cpu_timed_s")
ORDER_TEXT = ("study", "experiment", "model", "integrator", "abscissa", "note", "local_slopes")
ORDER_NUMBERS = ("nominal_order", "fitted_order", "residual", "points_used", "points_total",
                 "window_largest", "window_smallest", "window_first", "fit_deviation", "correlation",
                 "slope_vs_mean_step", "added_steps")
REPRODUCTION_TEXT = ("study", "experiment", "example", "method", "setting", "role", "metric",
                     "case_id", "note")
REPRODUCTION_NUMBERS = ("published", "ours", "ratio", "round_off", "in_band")
VERDICT_TEXT = ("study", "experiment", "model", "integrator", "family", "promise", "state",
                "why", "relation", "reason")
VERDICT_NUMBERS = ("value", "bound")
# verdicts.csv's states and claims.csv's (docs/result-files.md); anything else is refused.
VERDICT_STATES = ("kept", "broken", "not_checked", "explained")
CLAIM_STATES = ("held", "not_held", "not_checked")
RELATIONS = (">=", "<=", "")
CLAIM_TEXT = ("study", "experiment", "claim", "where", "metric", "integrators", "relation",
              "state", "reason")
CLAIM_NUMBERS = ("bound", "measured")
SERIES_NUMBERS = ("t", "energy_err", "energy_rel_err", "unit_length_err", "tangency_err",
                  "momentum_err", "step", "casimir_err", "manifold_defect")
SNAPSHOT_NUMBERS = ("t", "body", "q_x", "q_y", "q_z", "kinetic_energy")
# The kinds of quantity a case's long-time statistics follow (docs/result-files.md).
LONG_TIME_KINDS = ("energy", "momentum", "casimir", "manifold_defect", "constraint_residual")
LONG_TIME_NUMBERS = ("abs_max", "alpha", "alpha_se", "fit_from", "fit_to")
LONG_TIME_BINS = ("t_hi", "min", "max")  # the envelope: per bin max(|min|, |max|) at t_hi
EVOCATION_DIR = re.compile(r"evocation/[A-Za-z0-9_.-]+")
EVOKED_FRAME = re.compile(r"frames/[0-9]+-xi[A-Za-z0-9_.+-]*\.csv")


class ResultError(Exception):
    """Malformed input; the message names the file and what is wrong with it."""


def slug(name: str) -> str:
    """A file-name- and anchor-safe form of a study or experiment name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "unnamed"


def is_result_dir(path: Path) -> bool:
    return (path / "manifest.json").is_file()


def read_csv(path: Path, text: tuple[str, ...], numbers: tuple[str, ...],
             optional: tuple[str, ...] = (),
             check: Callable[[Row, int], None] | None = None) -> list[Row]:
    """Rows of a CSV file keeping only the named columns, which must all be present but the
    optional numbers, None in every row when absent; check, if given, sees every row with its
    line number and raises ResultError on one it refuses."""
    rows: list[Row] = []
    try:
        with path.open(newline="", encoding="utf-8") as file:
            reader = csv.DictReader(file)
            header = reader.fieldnames or []
            for column in (*text, *numbers):
                if column not in header:
                    raise ResultError(f"{path}: missing column '{column}'")
            for record in reader:
                if None in record or None in record.values():
                    raise ResultError(f"{path}:{reader.line_num}: the number of fields "
                                      f"differs from the header's {len(header)}")
                row: Row = {column: record[column] for column in text}
                for column in numbers:
                    row[column] = _number(record[column], path, reader.line_num, column)
                for column in optional:
                    row[column] = (_number(record[column], path, reader.line_num, column)
                                   if column in header else None)
                if check is not None:
                    check(row, reader.line_num)
                rows.append(row)
    except OSError as err:
        raise ResultError(f"{path}: {err.strerror}") from err
    except (csv.Error, UnicodeDecodeError) as err:
        raise ResultError(f"{path}: {err}") from err
    return rows


def _number(text: str, path: Path, line: int, column: str) -> float | None:
    if text == "":
        return None
    try:
        return float(text)
    except ValueError:
        raise ResultError(f"{path}:{line}: column '{column}' is not a number: {text!r}") from None


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ResultError(f"{path}: {err.strerror}") from err
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ResultError(f"{path}: not valid JSON: {err}") from err
    except RecursionError as err:
        raise ResultError(f"{path}: nested too deeply to be a manifest") from err
    if not isinstance(manifest, dict) or not isinstance(manifest.get("study"), str):
        raise ResultError(f"{path}: expected an object with a string 'study'")
    experiments = manifest.get("experiments", [])
    if not isinstance(experiments, list) or not all(
            isinstance(e, dict) and isinstance(e.get("name"), str) for e in experiments):
        raise ResultError(f"{path}: 'experiments' must be a list of objects with a 'name'")
    for e in experiments:
        _check_types(path, f"experiment '{e['name']}'", e, EXPERIMENT_TYPES)
        if not all(isinstance(p, str) for p in e.get("plots") or []):
            raise ResultError(f"{path}: experiment '{e['name']}': 'plots' must be a list of names")
        for evoked in e.get("evocations") or []:
            if not isinstance(evoked, dict):
                raise ResultError(f"{path}: experiment '{e['name']}': 'evocations' must be a list "
                                  "of objects")
            _check_types(path, f"experiment '{e['name']}': an evocation", evoked, EVOCATION_TYPES)
        if not all(isinstance(t, (int, float)) and not isinstance(t, bool)
                   for t in e.get("formation_times") or []):
            raise ResultError(f"{path}: experiment '{e['name']}': 'formation_times' must be a "
                              "list of numbers")
        if not all(isinstance(link, list) and len(link) == 2
                   and all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in link)
                   for link in e.get("curve_links") or []):
            raise ResultError(f"{path}: experiment '{e['name']}': 'curve_links' must be a list "
                              "of pairs [a, b] of curve indices")
    figures = manifest.get("figures", [])
    if not isinstance(figures, list) or not all(
            isinstance(f, dict) and isinstance(f.get("name"), str)
            and isinstance(f.get("kind"), str) for f in figures):
        raise ResultError(f"{path}: 'figures' must be a list of objects with a 'name' and a "
                          "'kind'")
    for f in figures:
        _check_types(path, f"figure '{f['name']}'", f, FIGURE_TYPES)
        if not all(isinstance(n, str) for n in f.get("experiments") or []):
            raise ResultError(f"{path}: figure '{f['name']}': 'experiments' must be a list of names")
    _check_types(path, "the manifest", manifest, MANIFEST_TYPES)
    return manifest


# The types of the manifest members the report reads (docs/result-files.md); None is allowed.
MANIFEST_TYPES = {"title": str, "description": str, "kind": str, "wall_s": (int, float),
                  "machine": dict, "sundials": dict, "git_revision": str, "spec_file": str}
EXPERIMENT_TYPES = {"title": str, "description": str, "model": str, "preset": str,
                    "reference": str, "reference_err": (int, float), "T": (int, float),
                    "parameters": dict, "plots": list, "evoke": dict, "evocations": list,
                    "formation_times": list, "curve_links": list, "state_space": dict}
EVOCATION_TYPES = {"case_id": str, "integrator": str, "h": (int, float), "status": str,
                   "detail": str, "dir": str}
FIGURE_TYPES = {"title": str, "parameter": str, "metric": str, "experiments": list}


def _check_types(path: Path, where: str, obj: dict[str, Any], types: dict[str, Any]) -> None:
    for key, expected in types.items():
        value = obj.get(key)
        if value is not None and (not isinstance(value, expected) or isinstance(value, bool)):
            raise ResultError(f"{path}: {where}: '{key}' has the wrong type "
                              f"({type(value).__name__})")


@dataclass
class Study:
    """One result directory, loaded and checked."""

    path: Path
    manifest: dict[str, Any]
    cases: list[Row]
    orders: list[Row]
    reproduction: list[Row]
    slug: str
    verdicts: list[Row] = field(default_factory=list)  # verdicts.csv, required
    claims: list[Row] = field(default_factory=list)  # claims.csv, when the spec has claims
    _read: dict[str, Series | None] = field(default_factory=dict)  # series files, by name
    _evocations: dict[str, Evocation | None] = field(default_factory=dict)  # by folder
    _long_times: dict[str, LongTime | None] = field(default_factory=dict)  # by case_id

    @property
    def name(self) -> str:
        return str(self.manifest["study"])

    @property
    def title(self) -> str:
        return str(self.manifest.get("title") or self.name)

    def experiments(self) -> list[dict[str, Any]]:
        """The manifest's experiments, then any experiment that only cases.csv names."""
        listed = list(self.manifest.get("experiments", []))
        known = {e["name"] for e in listed}
        for case in self.cases:
            if case["experiment"] not in known:
                known.add(case["experiment"])
                listed.append({"name": case["experiment"], "title": case["experiment"],
                               "description": "Named in cases.csv but not in manifest.json.",
                               "plots": []})
        return listed

    def figures(self) -> list[dict[str, Any]]:
        """The study-level figures the spec asked for (manifest.json "figures")."""
        return list(self.manifest.get("figures", []))

    def cases_of(self, experiment: str) -> list[Row]:
        return [c for c in self.cases if c["experiment"] == experiment]

    def orders_of(self, experiment: str) -> list[Row]:
        return [o for o in self.orders if o["experiment"] == experiment]

    def verdicts_of(self, experiment: str) -> list[Row]:
        return [v for v in self.verdicts if v["experiment"] == experiment]

    def claims_of(self, experiment: str) -> list[Row]:
        return [c for c in self.claims if c["experiment"] == experiment]

    def series(self, case_id: str) -> Series | None:
        """The case's time series by column, or None when its file is missing."""
        return self._columns(f"{case_id}.csv", case_id, SERIES_NUMBERS)

    def snapshots(self, case_id: str) -> Series | None:
        """The case's per-body snapshots (series/<case_id>-snapshots.csv) by column, or None
        when its file is missing."""
        return self._columns(f"{case_id}-snapshots.csv", case_id, SNAPSHOT_NUMBERS)

    def curves(self, case_id: str) -> Points | None:
        """The model's named curves of the case (series/<case_id>-curves.csv) as
        (times, {name: [xs, ys, zs]}), or None when its file is missing."""
        return self._points(case_id, "curves", "curve")

    def paths(self, case_id: str) -> Points | None:
        """The points a paths plot draws (series/<case_id>-paths.csv: the model's configuration
        or its S^2 blocks) as (times, {name: [xs, ys, zs]}), or None when its file is missing."""
        return self._points(case_id, "paths", "point")

    def outputs(self, case_id: str) -> Columns | None:
        """The model's named outputs of the case (series/<case_id>-outputs.csv: t, then one
        column per output) as (times, {name: values}), or None when its file is missing."""
        return self._named_columns(case_id, "outputs", "output")

    def components(self, case_id: str) -> Columns | None:
        """The components plot's columns of the case (series/<case_id>-components.csv: t, then
        one column per component) as (times, {name: values}), or None when its file is missing."""
        return self._named_columns(case_id, "components", "component")

    def _points(self, case_id: str, kind: str, noun: str) -> Points | None:
        """A file of points in R^3 against t: t, then <name>_x, <name>_y, <name>_z per point."""
        path = self.path / "series" / f"{case_id}-{kind}.csv"
        header = _header(path, case_id)
        if header is None:
            return None
        names = [c[:-2] for c in header[1:] if c.endswith("_x")]
        if header[:1] != ["t"] or header[1:] != [n + a for n in names for a in ("_x", "_y", "_z")]:
            raise ResultError(f"{path}: the header is not t, then <name>_x, _y, _z per {noun}")
        data = self._columns(path.name, case_id, tuple(header)) or {}
        return data["t"], {name: [data[name + a] for a in ("_x", "_y", "_z")] for name in names}

    def _named_columns(self, case_id: str, kind: str, noun: str) -> Columns | None:
        """A file of named columns against t: t, then one column per name."""
        path = self.path / "series" / f"{case_id}-{kind}.csv"
        header = _header(path, case_id)
        if header is None:
            return None
        if header[:1] != ["t"] or len(header) < 2 or "" in header or len(set(header)) < len(header):
            raise ResultError(f"{path}: the header is not t, then one named column per {noun}")
        data = self._columns(path.name, case_id, tuple(header)) or {}
        return data["t"], {name: data[name] for name in header[1:]}

    def evocation(self, evoked: dict[str, Any]) -> Evocation | None:
        """The files of one of an experiment's evocations (manifest "evocations": an entry
        with status ok, its files in DIR/<dir>/, docs/result-files.md), or None when its
        evocation.json is missing."""
        where = str(evoked.get("dir") or "")
        if not EVOCATION_DIR.fullmatch(where):
            raise ResultError(f"{self.path / 'manifest.json'}: an evocation's dir is not "
                              f"evocation/<case_id>: {where!r}")
        if where not in self._evocations:
            self._evocations[where] = _read_evocation(self.path / where)
        return self._evocations[where]

    def long_time(self, case_id: str) -> LongTime | None:
        """The case's long-time statistics (series/<case_id>-long-time.json), or None when its
        file is missing (the case's experiment is not a long_time one, or it did not run)."""
        if case_id not in self._long_times:
            path = self.path / "series" / f"{case_id}-long-time.json"
            valid = case_id and "/" not in case_id and path.is_file()
            self._long_times[case_id] = read_long_time(path) if valid else None
        return self._long_times[case_id]

    def read_every_series(self) -> None:
        """Reads (and so checks) every series and evocation file the cases and experiments
        name, before anything is drawn."""
        for case in self.cases:
            self.series(case["case_id"])
            self.long_time(case["case_id"])
            self.snapshots(case["case_id"])
            self.curves(case["case_id"])
            self.outputs(case["case_id"])
            self.components(case["case_id"])
            self.paths(case["case_id"])
        for experiment in self.experiments():
            for evoked in experiment.get("evocations") or []:
                if evoked.get("status") == "ok":
                    self.evocation(evoked)

    def _columns(self, name: str, case_id: str, columns: tuple[str, ...]) -> Series | None:
        if name not in self._read:
            path = self.path / "series" / name
            if not case_id or "/" in case_id or not path.is_file():
                self._read[name] = None
            else:
                rows = read_csv(path, (), columns)
                self._read[name] = {column: [row[column] for row in rows] for column in columns}
        return self._read[name]


def _header(path: Path, case_id: str) -> list[str] | None:
    """The header of a case's series file, or None when the file is missing."""
    if not case_id or "/" in case_id or not path.is_file():
        return None
    try:
        with path.open(newline="", encoding="utf-8") as file:
            return next(csv.reader(file), [])
    except (OSError, csv.Error, UnicodeDecodeError) as err:
        raise ResultError(f"{path}: {err}") from err


@dataclass
class Evocation:
    """The files of a case's pattern evocation: evocation.json as read, scores.csv by column,
    and each best frame's file by column, in the order of summary["best"]."""

    summary: dict[str, Any]
    scores: Series
    frames: list[Series]


def _read_json(path: Path) -> Any:
    """A JSON file's value; a ResultError naming the file when it cannot be read or parsed."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ResultError(f"{path}: {err.strerror}") from err
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
        raise ResultError(f"{path}: not valid JSON: {err}") from err


def _read_evocation(folder: Path) -> Evocation | None:
    """evocation.json, scores.csv and the best frames' files of one evocation folder, checked;
    None when evocation.json is missing."""
    path = folder / "evocation.json"
    if not path.is_file():
        return None
    summary = _read_json(path)
    bodies = summary.get("bodies") if isinstance(summary, dict) else None
    best = summary.get("best") if isinstance(summary, dict) else None
    if not (isinstance(bodies, list) and bodies and all(isinstance(b, str) for b in bodies)
            and isinstance(best, list) and all(isinstance(b, dict) for b in best)):
        raise ResultError(f"{path}: expected an object with a list of 'bodies' and of 'best' frames")
    _check_types(path, "the evocation", summary, {"critical_frequency": (int, float),
                                                   "lag_min": (int, float),
                                                   "lag_max": (int, float)})
    for frame in best:
        _check_types(path, "a best frame", frame, {"rank": int, "xi": (int, float),
                                                   "score": (int, float), "lag": (int, float)})
        if not (isinstance(frame.get("frame"), str) and EVOKED_FRAME.fullmatch(frame["frame"])):
            raise ResultError(f"{path}: a best frame's file is not frames/<rank>-xi<value>.csv")
    rows = read_csv(folder / "scores.csv", (), ("xi", "score", "lag"))
    scores = {c: [row[c] for row in rows] for c in ("xi", "score", "lag")}
    columns = ("t", *(f"{b}_{a}" for b in bodies for a in "xyz"))
    frames = []
    for frame in best:
        rows = read_csv(folder / frame["frame"], (), columns)
        frames.append({c: [row[c] for row in rows] for c in columns})
    return Evocation(summary, scores, frames)


@dataclass(frozen=True)
class LongTimeQuantity:
    """One quantity of a case's long-time statistics: the numbers the report shows (NaN where
    the file has null) and its time bins, each an array over the bins the file lists."""

    name: str
    kind: str  # one of LONG_TIME_KINDS
    alpha_note: str  # why alpha is NaN, if it is
    abs_max: float
    alpha: float
    alpha_se: float
    fit_from: float
    fit_to: float
    bins: dict[str, np.ndarray]  # LONG_TIME_BINS, NaN for null


@dataclass(frozen=True)
class LongTime:
    """A case's long-time statistics (docs/result-files.md, "Long-time statistics")."""

    quantities: list[LongTimeQuantity]


def read_long_time(path: Path) -> LongTime:
    """series/<case_id>-long-time.json, checked: every member the report reads, of its type."""
    data = _read_json(path)
    quantities = data.get("quantities") if isinstance(data, dict) else None
    if not (isinstance(quantities, list) and all(isinstance(q, dict) for q in quantities)):
        raise ResultError(f"{path}: expected an object with a list of 'quantities'")
    return LongTime([_long_time_quantity(path, q) for q in quantities])


def _long_time_quantity(path: Path, q: dict[str, Any]) -> LongTimeQuantity:
    """One quantity of a long-time file; a number may be null (NaN), not missing."""
    name, kind, note, bins = q.get("name"), q.get("kind"), q.get("alpha_note", ""), q.get("bins")
    if not (isinstance(name, str) and isinstance(note, str) and isinstance(bins, dict)):
        raise ResultError(f"{path}: a quantity needs a string 'name' and 'alpha_note' and an "
                          "object 'bins'")
    if kind not in LONG_TIME_KINDS:
        raise ResultError(f"{path}: quantity '{name}': 'kind' is {kind!r}, not one of "
                          + ", ".join(LONG_TIME_KINDS))
    missing = [key for key in LONG_TIME_NUMBERS if key not in q]
    if missing:
        raise ResultError(f"{path}: quantity '{name}': no '{missing[0]}'")
    numbers = {key: _json_number(path, name, key, q.get(key)) for key in LONG_TIME_NUMBERS}
    columns = {}
    for key in LONG_TIME_BINS:
        values = bins.get(key)
        if not isinstance(values, list):
            raise ResultError(f"{path}: quantity '{name}': bins '{key}' is not a list")
        columns[key] = np.array([_json_number(path, name, key, v) for v in values], dtype=float)
    if len({len(values) for values in columns.values()}) > 1:
        raise ResultError(f"{path}: quantity '{name}': its bins' lists differ in length")
    return LongTimeQuantity(name, kind, note, bins=columns, **numbers)


def _json_number(path: Path, name: str, key: str, value: Any) -> float:
    """A number of a long-time file; null (how the file writes NaN) is NaN."""
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ResultError(f"{path}: quantity '{name}': '{key}' is not a number: {value!r}")
    return float(value)


def load_study(path: Path) -> Study:
    """Read a result directory: manifest.json, cases.csv, orders.csv and verdicts.csv are
    required, reproduction.csv and claims.csv optional."""
    if not is_result_dir(path):
        raise ResultError(f"{path} is not a result directory (no manifest.json)")
    manifest = _read_manifest(path / "manifest.json")
    if not (path / "verdicts.csv").is_file():
        raise ResultError(f"{path}: no verdicts.csv (written by a geomint older than this "
                          "report: rerun the study)")
    reproduction_csv = path / "reproduction.csv"
    reproduction = (_read_reproduction(reproduction_csv) if reproduction_csv.exists() else [])
    claims_csv = path / "claims.csv"
    return Study(path=path, manifest=manifest,
                 cases=read_csv(path / "cases.csv", CASE_TEXT, CASE_NUMBERS,
                                CASE_OPTIONAL_NUMBERS),
                 orders=_read_orders(path / "orders.csv"),
                 reproduction=reproduction, slug=slug(manifest["study"]),
                 verdicts=_read_verdicts(path / "verdicts.csv"),
                 claims=_read_claims(claims_csv) if claims_csv.exists() else [])


def _one_of(path: Path, line: int, column: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ResultError(f"{path}:{line}: column '{column}' is {value!r}, not one of "
                          + ", ".join(repr(a) for a in allowed))


def _read_orders(path: Path) -> list[Row]:
    """orders.csv, its local_slopes (`;`-separated) read into a list of floats."""
    def check(row: Row, line: int) -> None:
        text = row["local_slopes"]
        slopes = [_number(s, path, line, "local_slopes") for s in text.split(";")] if text else []
        if None in slopes:
            raise ResultError(f"{path}:{line}: column 'local_slopes' has an empty slope: "
                              f"{text!r}")
        row["local_slopes"] = slopes

    return read_csv(path, ORDER_TEXT, ORDER_NUMBERS, check=check)


def _read_verdicts(path: Path) -> list[Row]:
    def check(row: Row, line: int) -> None:
        _one_of(path, line, "state", row["state"], VERDICT_STATES)
        _one_of(path, line, "relation", row["relation"], RELATIONS)
        if not row["promise"]:
            raise ResultError(f"{path}:{line}: column 'promise' is empty")

    return read_csv(path, VERDICT_TEXT, VERDICT_NUMBERS, check=check)


def _read_claims(path: Path) -> list[Row]:
    def check(row: Row, line: int) -> None:
        _one_of(path, line, "state", row["state"], CLAIM_STATES)
        _one_of(path, line, "relation", row["relation"], RELATIONS)

    return read_csv(path, CLAIM_TEXT, CLAIM_NUMBERS, check=check)


def _read_reproduction(path: Path) -> list[Row]:
    """reproduction.csv; round_off is 1 or 0, in_band 1 or 0, and empty exactly on a round-off
    row (which has no band verdict)."""
    def check(row: Row, line: int) -> None:
        if row["round_off"] not in (0.0, 1.0):
            raise ResultError(f"{path}:{line}: column 'round_off' is not 1 or 0")
        if row["in_band"] not in ((None,) if row["round_off"] else (0.0, 1.0)):
            raise ResultError(f"{path}:{line}: column 'in_band' is not "
                              + ("empty on a round-off row" if row["round_off"] else "1 or 0"))

    return read_csv(path, REPRODUCTION_TEXT, REPRODUCTION_NUMBERS, check=check)
