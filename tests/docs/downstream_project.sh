#!/usr/bin/env bash
# Label `docs`: "From your own CMake project" of docs/adding-an-integrator.md followed on its
# example, docs/examples/downstream (Heun's method, heun.hpp, and the one geomint_add_integrator()
# call of its CMakeLists.txt). geomint, as this build made it, is installed into a temporary
# prefix; the example is configured against it in a folder of its own and built, compiling
# Heun's method alone on each registry model (the installed libraries are reused), and then:
#   - its ctest runs geomint's promise suites on `heun`, with geomint's labels, and they pass:
#     DeclaredOrder, Symmetry, Symplecticity, EnergyDrift, MomentumMapControl and
#     LongTimePromises cases among them;
#   - its geomint lists `heun`, runs it, runs a study with it (its order verdict kept) and a
#     matrix of it on every registry model;
#   - configured to declare order 3 (the example's cache option HEUN_DECLARED_ORDER), the
#     suites catch it: DeclaredOrder.heun_on_<model> fails.
# Usage: downstream_project.sh <geomint build folder> <geomint source folder> [work folder, kept;
# default a temporary one]
set -euo pipefail

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
if [[ $# -ge 3 ]]; then
  work=$3
  rm -rf "$work" && mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
fail() { echo "downstream_project: $*" >&2; exit 1; }
prefix=$work/prefix
example=$work/build

cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "geomint does not install"; }
[[ -f $prefix/lib/cmake/geomint/geomintConfig.cmake ]] || fail "no lib/cmake/geomint/geomintConfig.cmake"

cmake -S "$src/docs/examples/downstream" -B "$example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "the example does not configure against the installed geomint"; }
cmake --build "$example" -j 2 >"$work/build.log" 2>&1 ||
  { tail -50 "$work/build.log"; fail "the example does not build"; }

# The suites on heun, as the example's own ctest tests, with geomint's labels.
(cd "$example" && ctest -j 2 --output-on-failure >"$work/ctest.log" 2>&1) ||
  { tail -60 "$work/ctest.log"; fail "the promise suites fail on heun"; }
grep -q '^100% tests passed' "$work/ctest.log" || fail "ctest ran no test"
for case in DeclaredOrder.heun_on_spherical_pendulum Symmetry.heun_on_spherical_pendulum \
            Symplecticity.heun_on_spherical_pendulum EnergyDrift.heun_on_spherical_pendulum \
            MomentumMapControl.heun_on_spherical_pendulum DeclaredOrder.heun_on_free_rigid_body \
            LongTimePromises.heun_on_heavy_top; do
  grep -Eq "Test +#[0-9]+: $case \.+ +Passed" "$work/ctest.log" || fail "$case did not run and pass"
done
for label in order conservation longtime; do
  (cd "$example" && ctest -N -L "^$label\$") | grep -Eq 'Total Tests: [1-9]' ||
    fail "no case labelled $label"
done
if grep -E 'Test +#[0-9]+: ' "$work/ctest.log" | grep -v '\.heun_on_' | grep -q .; then
  fail "the suites ran cases of geomint's own integrators, not only heun's"
fi

# The example's geomint: heun among the integrators of list, run, study and matrix.
geomint=$example/geomint
"$geomint" list integrators | grep -Eq '^heun +classical +2 +fixed +AmbientOde ' ||
  fail "geomint list integrators does not list heun"
"$geomint" run --model spherical_pendulum --integrator heun --h 0.01 --T 1 --out "$work/run.csv" ||
  fail "geomint run --integrator heun fails"
[[ $(wc -l <"$work/run.csv") -eq 102 ]] || fail "geomint run wrote no 100 steps of heun"

cat >"$work/study.yaml" <<'YAML'
name: heun_study
title: Heun's method beside RK2
experiments:
  - name: swing
    model: spherical_pendulum
    preset: swing
    T: 1
    reference: {integrator: odeint_rkf78, rtol: 1e-13, atol: 1e-15}
    runs:
      - integrators: [heun, rk2]
        h: [0.04, 0.02, 0.01, 0.005]
YAML
"$geomint" study "$work/study.yaml" --out "$work/study" --quiet 2>"$work/study.log" ||
  { cat "$work/study.log"; fail "geomint study with heun fails"; }
grep -Eq '^heun_study,swing,spherical_pendulum,heun,classical,order,kept,' "$work/study/verdicts.csv" ||
  { cat "$work/study/verdicts.csv"; fail "the study does not keep heun's order"; }

# A matrix needs an experiment on every registry model: heun on each at its first preset, a few
# steps.
python3 - "$geomint" "$work/matrix.yaml" <<'PY' || fail "cannot write the matrix spec"
import subprocess, sys
listing = subprocess.run([sys.argv[1], "list", "models"], check=True, capture_output=True, text=True).stdout
models, in_presets = [], False
for line in listing.splitlines():
    if line and not line.startswith(" "):
        models.append([line.strip(), None])
        in_presets = False
    elif line.strip() == "presets:":
        in_presets = True
    elif in_presets and models[-1][1] is None and line.startswith("    "):
        models[-1][1] = line.strip().split(":")[0]
with open(sys.argv[2], "w") as spec:
    spec.write("name: heun_matrix\nkind: matrix\ntitle: Heun's method on every model\nexperiments:\n")
    for model, preset in models:
        spec.write(f"  - {{name: {model}, model: {model}, preset: {preset}, T: 0.005,\n"
                   f"     runs: [{{integrators: [heun], h: [0.001]}}]}}\n")
PY
"$geomint" matrix --spec "$work/matrix.yaml" --out "$work/matrix" 2>"$work/matrix.log" ||
  { cat "$work/matrix.log"; fail "geomint matrix with heun fails"; }
models=$("$geomint" list models | grep -c '^[a-z]')
[[ $(grep -c ',heun,' "$work/matrix/cases.csv") -eq $models ]] ||
  fail "the matrix did not run heun on each of the $models models"

# A wrong declaration is caught: order 3 declared for the second-order method.
cmake -S "$src/docs/examples/downstream" -B "$example" -DHEUN_DECLARED_ORDER=3 >>"$work/configure.log" 2>&1 ||
  fail "the example does not configure with HEUN_DECLARED_ORDER=3"
cmake --build "$example" -j 2 --target geomint_promise_suites >>"$work/build.log" 2>&1 ||
  { tail -50 "$work/build.log"; fail "the example does not build with HEUN_DECLARED_ORDER=3"; }
if (cd "$example" && ctest -R '^DeclaredOrder\.heun_on_spherical_pendulum$' --output-on-failure \
      >"$work/wrong.log" 2>&1); then
  fail "DeclaredOrder.heun_on_spherical_pendulum passes with order 3 declared"
fi
grep -Eq 'declared 3, fitted (1\.[89]|2\.[01])[0-9]* ' "$work/wrong.log" ||
  { tail -30 "$work/wrong.log"; fail "DeclaredOrder did not fail for the declared order"; }
echo "downstream_project: the example builds against the installed geomint, its suites pass on heun" \
     "and catch a wrong order, and its geomint lists and runs heun in a study and a matrix"
