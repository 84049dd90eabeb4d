"""Turn result directories into a report: index.html (the verdict), a page per study, a matrix
page per matrix study, summary.md and figures/.

Usage: make_report.py RESULTS --out REPORT_DIR

RESULTS is one result directory (it has manifest.json) or a directory whose immediate
subdirectories are result directories, each with its verdicts.csv (a folder written by a geomint
older than this report has none, and is refused: rerun the study). Exit status: 0 done, with one
line on stdout naming the index ("report: REPORT_DIR/index.html"); 2 malformed input, with one
line on stderr naming the file and the problem; 4 a report file, or that line, could not be
written.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import evocation_section
import figures
import index_page
import long_time
import long_time_figures
import manifolds
import markdown_summary
import matrix_page
import matrix_verdict
import page_shell
import study_page
from results import ResultError, Study, is_result_dir, load_study


def find_result_dirs(root: Path) -> list[Path]:
    """root itself when it is a result directory, else its result subdirectories, sorted."""
    if is_result_dir(root):
        return [root]
    found = sorted(p for p in root.iterdir() if is_result_dir(p)) if root.is_dir() else []
    if not found:
        raise ResultError(f"{root} is not a result directory (no manifest.json), "
                          "nor does it contain one")
    return found


def load_studies(root: Path) -> list[Study]:
    """Load every result directory, renaming repeated study names so that figures and pages
    don't clash: no two studies share a slug, and none takes the index's name or another's
    matrix page's (page_shell)."""
    studies = [load_study(path) for path in find_result_dirs(root)]
    for study in studies:  # the models' manifolds, for the matrix rows and the error axes
        manifolds.note_manifest(study.path / "manifest.json", study.manifest)
    used = {Path(page_shell.INDEX).stem}
    for study in studies:
        base, number = study.slug, 1
        while study.slug in used or f"{study.slug}-matrix" in used:
            number += 1
            study.slug = f"{base}-{number}"
        used |= {study.slug, f"{study.slug}-matrix"}
    return studies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="report", description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a result directory, or a directory of them")
    parser.add_argument("--out", type=Path, required=True, help="report directory to write")
    args = parser.parse_args(argv)
    try:  # everything is read and checked before the report folder is touched
        studies = load_studies(args.results)
        for study in studies:
            study.read_every_series()
    except ResultError as err:
        print(f"report: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"report: cannot read {err.filename or args.results}: {err.strerror}", file=sys.stderr)
        return 4
    except (RecursionError, ValueError, TypeError) as err:
        print(f"report: {args.results}: malformed results ({type(err).__name__}: {err})"
              .replace("\n", " "), file=sys.stderr)
        return 2
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        drawn = [(study, {e["name"]: figures.experiment_figures(study, e, args.out)
                          for e in study.experiments()})
                 for study in studies]
        for study, figured in drawn:  # a long-time matrix: each model's envelopes too
            if long_time.is_long_time(study):
                for name, figure in long_time_figures.draw_long_time_figures(study,
                                                                             args.out).items():
                    figured[name].figures.append(figure)
        across = {study.slug: figures.study_figures(study, args.out) for study in studies}
        evoked = {study.slug: {e["name"]: evocation_section.draw_evocations(study, e, args.out)
                               for e in study.experiments()}
                  for study in studies}
        grids = {study.slug: matrix_verdict.grid(study) for study in studies
                 if matrix_verdict.is_matrix(study)}
        for study, figured in drawn:
            study_page.write_study_page(args.out / page_shell.study_file(study), study, figured,
                                        across[study.slug], evoked[study.slug])
            if study.slug in grids:
                matrix_page.write_matrix_page(args.out / page_shell.matrix_file(study), study,
                                              grids[study.slug], figured)
        index_page.write_index(args.out / page_shell.INDEX, studies, grids,
                               {study.slug: figured for study, figured in drawn})
        markdown_summary.write_summary(args.out / "summary.md", studies, across)
    except ResultError as err:
        print(f"report: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"report: cannot write {err.filename or args.out}: {err.strerror}", file=sys.stderr)
        return 4
    except Exception as err:  # pylint: disable=broad-except
        # Results that passed the checks above but still break a figure: name it on one line
        # (exit 2, as malformed input) rather than print a traceback.
        print(f"report: {args.results}: cannot draw the report from these results "
              f"({type(err).__name__}: {err})".replace("\n", " "), file=sys.stderr)
        return 2
    try:
        print(f"report: {args.out / page_shell.INDEX}", flush=True)
    except OSError as err:
        print(f"report: cannot write to standard output: {err.strerror}", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
