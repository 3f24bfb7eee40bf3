#!/bin/sh
# e2e_kept.sh - raising inside a kept sequential loop end to end (issue 14;
# docs/analyze.md, "Kept loops"; pipeline/kept.c).  Each kernel whose
# time-step loop is kept and whose body does not read its iterator raises in
# every dialect: exit 0 (every body task proved), --check agrees with the
# natively compiled original (the interpreter runs the loop), the report
# names the kept loop (text and --json), the MLIR has the loop (scf.for for
# linalg and tosa, a generic stablehlo.while for hlo) and passes
# mlir-opt-16, --emit c compiles and agrees with the interpreter at two
# size sets, the saved report is proved again by
# uplift verify and a tampered body is not.  A body that reads the kept
# iterator (fdtd-2d's fict[t]) or a local the loop carries is refused
# with the reason.
. tests/lib.sh

opts() { sed -n '1s|^// uplift: ||p' "$1"; }
KEPT="benchmarks/kernels/partial/jacobi-1d.c benchmarks/kernels/partial/jacobi-2d.c
tests/kernels/kept/smooth_steps.c"
for f in $KEPT; do
  name=$(basename "$f" .c)
  for d in ${RAISE_DIALECTS:-hlo linalg tosa}; do
    fl=""
    [ "$d" = tosa ] && grep -q POLYBENCH "$f" && fl="-D DATA_TYPE_IS_FLOAT"
    # shellcheck disable=SC2046,SC2086
    expect_status 0 "$name ($d): raised inside its kept loop, proved, --check agrees" \
      "$UPLIFT" raise "$f" $(opts "$f") $fl --dialect $d --check -o "$TMP/$name.$d.mlir"
    check "$name ($d): the report names the kept loop" grep -q "^kept loop [a-z]* (line [0-9]*): carries a dependence" "$TMP/err"
    check "$name ($d): --check agrees" grep -q "^uplift raise: --check: the raised program agrees" "$TMP/err"
    if [ "$d" = hlo ]; then
      check "$name ($d): a stablehlo.while" grep -q '"stablehlo.while"' "$TMP/$name.$d.mlir"
      check "$name ($d): output parses with mlir-opt-16" \
        mlir-opt-16 --allow-unregistered-dialect "$TMP/$name.$d.mlir"
    else
      check "$name ($d): an scf.for" grep -q ' = scf.for ' "$TMP/$name.$d.mlir"
      check "$name ($d): output verifies with mlir-opt-16" mlir-opt-16 "$TMP/$name.$d.mlir"
    fi
    # shellcheck disable=SC2046,SC2086
    "$UPLIFT" raise -q "$f" $(opts "$f") $fl --dialect $d --shapes dynamic -o "$TMP/$name.$d.dyn.mlir" 2>/dev/null
    ua=""; [ "$d" = hlo ] && ua="--allow-unregistered-dialect"
    # shellcheck disable=SC2086
    check "$name ($d): dynamic shapes pass mlir-opt-16" mlir-opt-16 $ua "$TMP/$name.$d.dyn.mlir"
  done
  # the JSON report: the kept loop, its tasks, every task proved
  # shellcheck disable=SC2046
  "$UPLIFT" raise -q "$f" $(opts "$f") --json -o "$TMP/$name.json" 2>/dev/null
  check "$name: --json names the kept loop and its proved tasks" python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
k = r["kept_loops"]
sys.exit(not (r["raised"] and len(k) == 1 and k[0]["dependence"]
              and k[0]["tasks"] == list(range(len(r["tasks"])))
              and all(t["verify"]["verdict"] == "proved" for t in r["tasks"])))' "$TMP/$name.json"
  # shellcheck disable=SC2046
  check "$name: its report is proved again by uplift verify" \
    "$UPLIFT" verify "$f" $(opts "$f") "$TMP/$name.json"
  # a wrong body: task 0's first literal doubled (a wrong sweep at every
  # iteration) is not proved
  python3 -c 'import json, re, sys
r = json.load(open(sys.argv[1]))
t = r["tasks"][0]
t["program"], n = re.subn(r"(?<![\w.])(\d+\.\d+):", lambda m: repr(2 * float(m.group(1))) + ":",
                          t["program"], count=1)
json.dump(r, open(sys.argv[2], "w"))
sys.exit(n != 1)' "$TMP/$name.json" "$TMP/$name.bad.json"
  check "$name: a tampered body is made" test -s "$TMP/$name.bad.json"
  # shellcheck disable=SC2046
  "$UPLIFT" verify "$f" $(opts "$f") "$TMP/$name.bad.json" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "$name: a tampered body is not proved (exit $rc)" test "$rc" -ne 0
  check "$name: uplift verify says which task" grep -q "task 0" "$TMP/out" "$TMP/err"
  # --emit c: a C loop around the body, compiled
  # shellcheck disable=SC2046
  expect_status 0 "$name: --emit c" "$UPLIFT" raise -q "$f" $(opts "$f") --emit c -o "$TMP/$name.out.c"
  check "$name: the C has the kept loop" grep -q "/\* the kept loop " "$TMP/$name.out.c"
  # shellcheck disable=SC2046
  check "$name: the C compiles" cc -c -o "$TMP/$name.o" "$TMP/$name.out.c" $(pkg-config --cflags openblas)
  # ... and computes what the original does (the loop runs tsteps times)
  for set in 9 14; do
    # shellcheck disable=SC2046
    expect_status 0 "$name: the C+BLAS agrees with the interpreter (size-set $set)" \
      "$UPLIFT" run "$f" $(opts "$f") --size-set "$set" --native --native-source "$TMP/$name.out.c" \
      --native-cflags "$(pkg-config --cflags --libs openblas)"
  done
done

# a body that reads the kept iterator: refused, with the reason
expect_status 1 "fdtd-2d: refused" "$UPLIFT" raise benchmarks/kernels/partial/fdtd-2d.c
check "fdtd-2d: the kept loop is not raised inside, and why" \
  grep -q "not raised inside: the body reads the kept iterator t" "$TMP/err"
# a local array that carries a value from one iteration to the next (w is
# read before it is written in each step): the body alone would read it
# uninitialised, so it is not raised inside (the raise would be wrong)
cat >"$TMP/local_carry.c" <<'C'
void kernel_lc(int steps, int n, double A[n], double B[n]) {
  double w[n];
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++)
      A[i] = 0.5 * w[i];
    for (int i = 0; i < n; i++)
      w[i] = A[i] + B[i];
  }
}
C
expect_status 1 "a local carried by the kept loop: refused" "$UPLIFT" raise "$TMP/local_carry.c"
check "a local carried by the kept loop: the reason" \
  grep -q "not raised inside: the local w carries a value from one iteration to the next" "$TMP/err"
report
