#!/bin/sh
# e2e_analyze.sh - `uplift analyze` end to end: every kernel file is
# analysed (exit 0, a verdict line; --json is valid JSON with the same
# verdict); the kernels with loop-carried dependence cycles say "raisable:
# no" with a reason, the others "raisable: yes"; the raised kernels keep no
# loop, and jacobi-1d, lu and seidel-2d name the loops to keep; bad input
# and usage errors exit 2 with nothing on stdout.
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
for f in tests/kernels/*.c benchmarks/kernels/partial/*.c; do analyze_ok "$f" no; done

# kept loops (docs/analyze.md): none for the raised kernels, text and JSON
for f in benchmarks/kernels/*.c; do
  "$UPLIFT" analyze "$f" >"$TMP/k" 2>&1
  check "$f: no kept loop" sh -c "! grep -q '^kept loops' '$TMP/k'"
  "$UPLIFT" analyze --json "$f" >"$TMP/kj" 2>&1
  check "$f: JSON: no kept loop" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["kept_loops"] == [] and d["scalar_statements"] == [] else 1)' "$TMP/kj"
done
# jacobi-1d: the time loop, its dependence with the distance, two tasks
P=benchmarks/kernels/partial
"$UPLIFT" analyze $P/jacobi-1d.c >"$TMP/j" 2>&1
check "jacobi-1d: one kept loop" grep -q '^kept loops (1; uplift raise raises inside a time-step loop, docs/analyze.md):$' "$TMP/j"
check "jacobi-1d: keeps t with its dependence" grep -q '^  keeps loop t (line [0-9]*): carries a dependence of S0 on S1 (flow through A, distance 1) that is not a reduction$' "$TMP/j"
check "jacobi-1d: t is the body's parameter" grep -q '^    parameters of its body: t$' "$TMP/j"
check "jacobi-1d: two tasks in the body" test "$(grep -c '^    task: S[01]$' "$TMP/j")" -eq 2
check "jacobi-1d: nothing scalar" sh -c "! grep -q 'stays scalar' '$TMP/j'"
# lu: the pivot loop i, j kept inside it, the division by the pivot scalar
"$UPLIFT" analyze $P/lu.c >"$TMP/l" 2>&1
check "lu: keeps the pivot loop i" grep -q '^  keeps loop i (line [0-9]*): carries a dependence' "$TMP/l"
check "lu: keeps j inside i" grep -q '^  keeps loop j (line [0-9]*) inside loop i: carries a dependence of S0 on S1 (flow through A)' "$TMP/l"
check "lu: the row update S2 is a task of i's body" grep -q '^    task: S2$' "$TMP/l"
check "lu: S1 stays scalar, with the reason" grep -q '^  S1 stays scalar: every loop around it is kept (i, j); loop j carries' "$TMP/l"
# seidel-2d: an in-place sweep keeps t, i and j; the statement stays scalar
"$UPLIFT" analyze $P/seidel-2d.c >"$TMP/s2" 2>&1
check "seidel-2d: three kept loops" grep -q '^kept loops (3;' "$TMP/s2"
check "seidel-2d: S0 stays scalar" grep -q '^  S0 stays scalar: every loop around it is kept (t, i, j)' "$TMP/s2"
"$UPLIFT" analyze --json $P/seidel-2d.c >"$TMP/s2j" 2>&1
check "seidel-2d: JSON kept loops t, i, j nested" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
k = d["kept_loops"]
assert [x["loop"] for x in k] == ["t", "i", "j"], k
assert [x["parent"] for x in k] == [-1, 0, 1], k
assert k[2]["parameters"] == ["t", "i", "j"], k
assert k[0]["dependence"]["distance"] == 1, k
assert [s["statement"] for s in d["scalar_statements"]] == [0], d["scalar_statements"]
' "$TMP/s2j"

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
