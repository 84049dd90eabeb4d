#!/usr/bin/env bash
# Label `docs`: docs/adding-a-model.md followed to the letter on a copy of the source tree. The
# documented example model (docs/examples/duffing_oscillator.{hpp,cpp}) and its unit test
# (docs/examples/test_duffing_oscillator.cpp) are copied to where the page says, its line is
# added to catalogue/model_registry.txt, and nothing else is touched. The copy is configured and
# built from scratch with one other model beside it (GEOMINT_MODELS, to keep the build to a few
# minutes), and then:
#   - its unit test is a ctest executable, test_duffing_oscillator, and passes;
#   - `geomint list models` lists it and `geomint run` integrates it (energy kept by RK4 to 1e-8);
#   - the catalogue suites include it (DeclaredOrder.rk4_on_duffing_oscillator among them) and
#     pass on it.
# Usage: adding_a_model.sh <geomint source folder> [work folder, kept; default a temporary one]
set -euo pipefail

src=$(cd "$1" && pwd)
if [[ $# -ge 2 ]]; then
  work=$2
  rm -rf "$work" && mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
copy=$work/src
build=$work/build
fail() { echo "adding_a_model: $*" >&2; exit 1; }

# The source tree as a newcomer has it: the files git knows (tracked, or new and not ignored).
mkdir -p "$copy"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard |
     while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
     tar --null -T - -cf -) | tar -C "$copy" -xf -
else
  tar -C "$src" --exclude=./build --exclude=./out -cf - . | tar -C "$copy" -xf -
fi

# The four files and the one line of docs/adding-a-model.md.
cp "$src/docs/examples/duffing_oscillator.hpp" "$src/docs/examples/duffing_oscillator.cpp" "$copy/models/"
cp "$src/docs/examples/test_duffing_oscillator.cpp" "$copy/tests/unit/models/"
echo "duffing_oscillator DuffingOscillator" >>"$copy/catalogue/model_registry.txt"

cmake -S "$copy" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGEOMINT_MPI=OFF \
  "-DGEOMINT_MODELS=spherical_pendulum;duffing_oscillator" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "the copy does not configure"; }
cmake --build "$build" -j 2 --target geomint test_catalogue test_duffing_oscillator \
  >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; fail "the copy does not build"; }

"$build/tests/unit/test_duffing_oscillator" || fail "test_duffing_oscillator fails"
(cd "$build" && ctest -N -R '^DuffingOscillator\.' | grep -q 'Total Tests: 3') ||
  fail "ctest does not run the model's unit test (3 tests of test_duffing_oscillator)"

geomint=$build/cli/geomint
"$geomint" list models | grep -q '^duffing_oscillator' || fail "geomint list models does not list it"
"$geomint" run --model duffing_oscillator --integrator rk4 --h 0.01 --T 10 --out "$work/run.csv" ||
  fail "geomint run fails on it"
python3 - "$work/run.csv" <<'PY' || fail "geomint run's output is not the model's"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][:4] == ["t", "x_1", "v_1", "energy"], rows[0]
assert abs(float(rows[-1][0]) - 10.0) < 1e-12, rows[-1]
e0, e1 = float(rows[1][3]), float(rows[-1][3])
assert abs(e1 - e0) < 1e-8 * abs(e0), (e0, e1)
PY

suites=$build/tests/catalogue/test_catalogue
"$suites" --gtest_list_tests --gtest_filter='*_on_duffing_oscillator' |
  grep -q '^  rk4_on_duffing_oscillator' || fail "the catalogue suites do not include it"
"$suites" --gtest_filter='*_on_duffing_oscillator' >"$work/suites.log" 2>&1 ||
  { tail -40 "$work/suites.log"; fail "the catalogue suites fail on it"; }
grep -q '^\[  PASSED  \]' "$work/suites.log" || fail "the catalogue suites ran nothing on it"
echo "adding_a_model: the documented example model builds, is listed, runs and passes the suites"
