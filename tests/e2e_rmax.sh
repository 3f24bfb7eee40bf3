#!/bin/sh
# e2e_rmax.sh - running maxima and minima as C writes them (`if (x[i] > m)
# m = x[i]`: a NaN element skipped, the earlier of two equal zeros kept)
# and programs that are almost them.  Kernels of tests/realc raised to
# linalg are proved outright there (reduce_update: a linalg.reduce whose
# region is arith.cmpf + arith.select, docs/verify.md "Conditional
# updates") and their saved reports are proved again by `uplift verify`;
# then each program is changed into a wrong one that agrees on every
# input without NaN or -0:
#   `>=` where C has `>` (keeps the later of equal zeros)  upd_gt -> upd_ge
#   a NaN-propagating maximum                      reduce_update -> reduce[max]
# None may be proved outright: in real mode `uplift verify` says `proved
# for inputs without NaN or -0` (the assumption under which they agree),
# and in fp mode (where -0 is a value of its own) it refutes the 1-D ones
# with a counterexample, exit 3, where the untouched program is proved
# (fp mode's comparisons are uninterpreted, so it does not decide the row
# maximum's combination step at an empty row: fp is not asked there); a
# change that shows on ordinary inputs (`<` for `>`) is refuted in real
# mode too.  A clamp `fminf(fmaxf(x, lo), hi)` is C's fmax and fmin as
# compares and selects (map_cfun), and maximum and minimum in their place
# are not proved outright.
# hlo and tosa keep the assumption (hlo's reduce may combine in any order,
# tosa has no region reduce).
. tests/lib.sh
BUDGET="--work 300 --timeout 900"

# tamper NAME FROM TO: $TMP/NAME.json is $TMP/r.json with every FROM made
# TO (sed)
tamper() { sed "s/$2/$3/g" "$TMP/r.json" >"$TMP/$1.json"; }

# outright REPORT: every task of a raise --json report proved, none for
# inputs without NaN or -0 (or finite ones) only
outright() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
vs = [t["verify"] for t in d["tasks"]]
assert vs and all(v["verdict"] == "proved" for v in vs), vs
assert not any(a.startswith(("no_nan", "finite")) for v in vs for a in v.get("assumes", [])), vs
# a conditional update is not associative: never proved for all sizes by
# the proof that reorders sums (docs/verify.md, "All sizes")
assert all(not t["verify"]["all_sizes"] for t in d["tasks"] if "reduce_update" in t["program"]), d
' "$1"
}

# not_outright FILE REPORT WHAT [fp]: real mode proves it only for inputs
# without NaN or -0; with fp, fp mode refutes it with a counterexample
not_outright() {
  "$UPLIFT" verify "$1" "$2" >"$TMP/out" 2>&1
  check "$3: not proved outright in real mode" grep -q 'proved for inputs without NaN or -0 (real' "$TMP/out"
  check "$3: the summary names the assumption" grep -q ', 1 proved for inputs without NaN or -0$' "$TMP/out"
  [ "${4:-}" = fp ] || return 0
  expect_status 3 "$3: refuted in fp mode" "$UPLIFT" verify --verify fp "$1" "$2"
  check "$3: with a counterexample" grep -q 'refuted (fp, .*: counterexample at ' "$TMP/out"
}

for f in tests/realc/inf_max_select.c tests/realc/vec_min_ret.c tests/realc/inf_softmax_rows.c; do
  b=$(basename "$f" .c)
  # the body C has (gt: a maximum, lt: a minimum), the other extreme's and
  # the NaN-propagating op of the same extreme; fp: whether fp mode decides
  # the program (its comparisons are uninterpreted: the row maximum's
  # combination step with mx at an empty row is not known there)
  dir=gt; other=lt; op=max; fp=fp
  [ "$b" = vec_min_ret ] && dir=lt && other=gt && op=min
  [ "$b" = inf_softmax_rows ] && fp=""
  # shellcheck disable=SC2086
  "$UPLIFT" raise --dialect linalg --json $BUDGET "$f" >"$TMP/r.json" 2>"$TMP/err"; got=$?
  check "$b: raised to linalg (exit $got)" [ "$got" -eq 0 ]
  check "$b: every task proved outright" outright "$TMP/r.json"
  check "$b: the running extreme is a conditional-update reduce" \
    grep -q "\"program\":.*reduce_update\\[dims=([01]), body=upd_$dir\\]" "$TMP/r.json"
  expect_status 0 "$b: the saved report is proved again" "$UPLIFT" verify "$f" "$TMP/r.json"
  check "$b: outright" grep -q 'task outputs proved (real, bound 3)$' "$TMP/out"
  [ -n "$fp" ] && expect_status 0 "$b: and in fp mode" "$UPLIFT" verify --verify fp "$f" "$TMP/r.json"
  tamper ge "body=upd_$dir" "body=upd_${dir%t}e"
  not_outright "$f" "$TMP/ge.json" "$b: ${dir%t}e for $dir" $fp
  tamper max "reduce_update\\(\\[dims=([01])\\), body=upd_$dir\\]" "reduce\\1, body=$op]"
  check "$b: the NaN-propagating program differs" grep -q "\"program\":.*reduce\\[dims=([01]), body=$op\\]" "$TMP/max.json"
  not_outright "$f" "$TMP/max.json" "$b: a NaN-propagating $op" $fp
  tamper flip "body=upd_$dir" "body=upd_$other"
  expect_status 3 "$b: the other extreme is refuted in real mode" "$UPLIFT" verify "$f" "$TMP/flip.json"
  check "$b: with a counterexample" grep -q 'refuted (real, .*: counterexample at ' "$TMP/out"
  # the MLIR: a linalg.reduce comparing and selecting, accepted by MLIR 16
  # shellcheck disable=SC2086
  "$UPLIFT" raise -q --dialect linalg $BUDGET "$f" >"$TMP/m.mlir" 2>/dev/null
  check "$b: linalg.reduce with arith.cmpf and arith.select" grep -q 'arith.select %.*_c, %.*_in, %.*_acc' "$TMP/m.mlir"
  check "$b: the MLIR passes mlir-opt-16" mlir-opt-16 "$TMP/m.mlir"
done

# the clamp: C's fmaxf/fminf elementwise, exact in linalg; maximum and
# minimum (NaN-propagating) in their place only for inputs without NaN or -0
f=tests/realc/dsp_clip_f32.c
# shellcheck disable=SC2086
"$UPLIFT" raise --dialect linalg --json $BUDGET "$f" >"$TMP/r.json" 2>"$TMP/err"; got=$?
check "dsp_clip_f32: raised to linalg (exit $got)" [ "$got" -eq 0 ]
check "dsp_clip_f32: proved outright" outright "$TMP/r.json"
check "dsp_clip_f32: as C's fmax and fmin" grep -q '"program":.*map_cfun\[fun=fmin\](map_cfun\[fun=fmax\]' "$TMP/r.json"
tamper max 'map_cfun\[fun=f\(m[a-z]*\)\](map_cfun\[fun=f\(m[a-z]*\)\]' 'map[fun=\1](map[fun=\2]'
check "dsp_clip_f32: maximum and minimum in their place" grep -q '"program":.*map\[fun=min\](map\[fun=max\]' "$TMP/max.json"
not_outright "$f" "$TMP/max.json" "dsp_clip_f32: maximum and minimum"
"$UPLIFT" raise -q --dialect linalg $BUDGET "$f" >"$TMP/m.mlir" 2>/dev/null
check "dsp_clip_f32: the map selects on an ordered or unordered compare" grep -q 'arith.cmpf uno' "$TMP/m.mlir"
check "dsp_clip_f32: the MLIR passes mlir-opt-16" mlir-opt-16 "$TMP/m.mlir"

# the other dialects keep the assumption, and say so
for d in hlo tosa; do
  # shellcheck disable=SC2086
  "$UPLIFT" raise --dialect "$d" $BUDGET tests/realc/inf_max_select.c >"$TMP/out" 2>"$TMP/err"; got=$?
  check "inf_max_select: $d raises (exit $got)" [ "$got" -eq 0 ]
  check "inf_max_select: $d: proved for inputs without NaN or -0 only" \
    grep -q '^task 1 m: .*proved for .*inputs.*with a NaN.* there: counterexample' "$TMP/err"
done
report
