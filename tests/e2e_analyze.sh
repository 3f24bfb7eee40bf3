#!/bin/sh
# e2e_analyze.sh - `uplift analyze` end to end: every kernel file is
# analysed (exit 0, a verdict line; --json is valid JSON with the same
# verdict); the kernels with loop-carried dependence cycles say "raisable:
# no" with a reason, the others "raisable: yes"; bad input and usage errors
# exit 2 with nothing on stdout.
. tests/lib.sh

# analyze_ok FILE VERDICT [OPTIONS]: exit 0, the verdict line, a JSON twin.
analyze_ok() {
  f=$1; want=$2; shift 2
  "$UPLIFT" analyze "$@" "$f" >"$TMP/out" 2>"$TMP/err"; got=$?
  why=""
  [ "$got" -eq 0 ] || why="exit $got"
  [ -z "$why" ] && ! grep -qx "raisable: $want" "$TMP/out" && why="no 'raisable: $want'"
  [ -z "$why" ] && [ "$want" = no ] && ! grep -q '^reason: .*loop ' "$TMP/out" && why="no reason naming a loop"
  [ -z "$why" ] && ! grep -q '^tasks (' "$TMP/out" && why="no task list"
  if [ -z "$why" ]; then
    "$UPLIFT" analyze --json "$@" "$f" >"$TMP/json" 2>>"$TMP/err" || why="--json failed"
  fi
  if [ -z "$why" ] && command -v python3 >/dev/null 2>&1; then
    jw=true; [ "$want" = no ] && jw=false
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if str(d["raisable"]).lower()==sys.argv[2] and len(d["tasks"])>0 else 1)' \
      "$TMP/json" "$jw" || why="JSON does not parse or has another verdict"
  fi
  if [ -z "$why" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: analyze $f: $why"; sed 's/^/  /' "$TMP/err" | head -n 5; fi
}

for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c; do
  args=$(sed -n 's|^// uplift: ||p' "$f" | head -n 1)
  # shellcheck disable=SC2086
  analyze_ok "$f" yes $args
done
for f in tests/kernels/*.c; do analyze_ok "$f" no; done

# gemm: a reduction over k, two tasks; symm: temp2 expanded
"$UPLIFT" analyze benchmarks/kernels/gemm.c >"$TMP/g" 2>&1
check "gemm: reduction + over k" grep -q '^  S[0-9]*: + over k into C$' "$TMP/g"
check "gemm: two tasks" grep -q '^tasks (2, run in this order):$' "$TMP/g"
"$UPLIFT" analyze benchmarks/kernels/syrk.c >"$TMP/s" 2>&1
check "syrk: lower-triangle mask" grep -q 'written: i0 >= i1 (new values inside, old outside)' "$TMP/s"
"$UPLIFT" analyze benchmarks/kernels/symm.c >"$TMP/y" 2>&1
check "symm: temp2 expanded" grep -q '^expanded: temp2 ' "$TMP/y"

# usage and bad input
expect_status 0 "analyze --help" "$UPLIFT" analyze --help
expect_status 2 "analyze without a file" "$UPLIFT" analyze
expect_status 2 "analyze two files" "$UPLIFT" analyze benchmarks/kernels/gemm.c benchmarks/kernels/2mm.c
expect_status 2 "analyze an unknown option" "$UPLIFT" analyze --bogus benchmarks/kernels/gemm.c
expect_status 2 "analyze a missing file" "$UPLIFT" analyze "$TMP/none.c"
printf 'void kernel_x(int n, double A[n]) { for (int i = 0; i < n; i++) A[i] = ; }\n' >"$TMP/bad.c"
expect_status 2 "analyze a syntax error" "$UPLIFT" analyze "$TMP/bad.c"
"$UPLIFT" analyze "$TMP/bad.c" >"$TMP/out" 2>/dev/null
check "bad input prints nothing on stdout" test ! -s "$TMP/out"
report
