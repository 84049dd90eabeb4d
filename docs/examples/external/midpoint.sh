#!/bin/sh
# The explicit midpoint rule (order 2) in awk, wrapped in sh: an integrator that reads no JSON,
# given what it needs on its command line by geomint's placeholders
# (docs/external-integrators.md):
#   sh midpoint.sh {model} {params} {state} {t0} {T} {h} {steps} {out}
model=$1 params=$2 state=$3 t0=$4 T=$5 h=$6 steps=$7 out=$8
case $model in
  spherical_pendulum) columns=q1_x,q1_y,q1_z,w1_x,w1_y,w1_z ;;
  free_rigid_body) columns=Pi_x,Pi_y,Pi_z ;;
  *) echo "midpoint.sh: no equations for $model" >&2; exit 1 ;;
esac
awk -v model="$model" -v params="$params" -v state="$state" -v t0="$t0" -v T="$T" -v h="$h" \
    -v n="$steps" -v columns="$columns" 'BEGIN {
  split(params, pairs, ","); for (i in pairs) { split(pairs[i], kv, "="); P[kv[1]] = kv[2] + 0 }
  d = split(state, y, ","); for (i = 1; i <= d; i++) y[i] += 0
  t = t0 + 0; print "t," columns; row(t, y)
  for (k = 0; k < n; k++) {  # n steps of h, the last ending at T
    t_next = (k == n - 1) ? T + 0 : t0 + (k + 1) * h; dt = t_next - t
    field(y, f); for (i = 1; i <= d; i++) mid[i] = y[i] + dt / 2 * f[i]
    field(mid, f); for (i = 1; i <= d; i++) y[i] += dt * f[i]
    t = t_next; row(t, y)
  }
}
function field(y, f,   w1, w2, w3) {
  if (model == "spherical_pendulum") {  # LLM (2.8), one body: q = y1..3, w = y4..6
    f[1] = y[5] * y[3] - y[6] * y[2]; f[2] = y[6] * y[1] - y[4] * y[3]; f[3] = y[4] * y[2] - y[5] * y[1]
    f[4] = P["g"] / P["l"] * y[2]; f[5] = -P["g"] / P["l"] * y[1]; f[6] = 0  # (g/l) q x e3
  } else {  # Euler: Pi x I^-1 Pi
    w1 = y[1] / P["I1"]; w2 = y[2] / P["I2"]; w3 = y[3] / P["I3"]
    f[1] = y[2] * w3 - y[3] * w2; f[2] = y[3] * w1 - y[1] * w3; f[3] = y[1] * w2 - y[2] * w1
  }
}
function row(t, y,   i, line) {
  line = sprintf("%.17g", t); for (i = 1; i <= d; i++) line = line sprintf(",%.17g", y[i]); print line
}' > "$out"
