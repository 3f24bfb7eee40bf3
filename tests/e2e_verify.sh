#!/bin/sh
# e2e_verify.sh - `uplift verify FILE.c REPORT.json` end to end: every kernel
# file found by glob raises to hlo (within a work budget, --work: a count,
# so not a matter of the machine's load; doitgen, the largest, takes about
# 75) and has its saved report re-checked and proved (exit 0); reports broken in generic ways (not JSON, another
# kernel, an unknown op, a task that does not exist) are bad input (exit 2);
# a report with a task left out or without its program is not proved
# (exit 3), and so is one re-checked with a step budget too small for its
# queries (--smt-steps 1: unknown, exit 3, the same every time).  A
# second difference written as add(A, A) is proved (the outcome key's
# p + p = 2*p), and a candidate equal in real arithmetic that cancels an
# infinity (heat-3d's (x - 2a) - x for -2a) is refuted with inf against NaN
# (one infinite input at a time), where both were unknown.
. tests/lib.sh

opts() { sed -n '1s|^// uplift: ||p' "$1"; }
first=""
for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c; do
  name=$(basename "$f" .c)
  if ! "$UPLIFT" raise "$f" $(opts "$f") --json --work 300 --timeout 900 >"$TMP/$name.json" 2>/dev/null; then
    FAIL=$((FAIL + 1)); echo "FAIL: $name: not raised to hlo"; continue; fi
  [ -z "$first" ] && first=$f
  expect_status 0 "$name: the saved report is proved again" \
    "$UPLIFT" verify "$f" "$TMP/$name.json" $(opts "$f")
  grep -q "task outputs proved (real, bound 3)" "$TMP/out" && PASS=$((PASS + 1)) || {
    FAIL=$((FAIL + 1)); echo "FAIL: $name: no summary line"; }
done
[ -n "$first" ] && PASS=$((PASS + 1)) || { FAIL=$((FAIL + 1)); echo "FAIL: nothing raised"; }
f=$first; name=$(basename "$f" .c); rep=$TMP/$name.json
# every task line names a verdict, mode, bound and seconds
expect_status 0 "--json output" "$UPLIFT" verify "$f" "$rep" $(opts "$f") --json --bound 2
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["proved"] is True and d["tasks"]
for t in d["tasks"]:
    v = t["verify"]
    assert v["verdict"] == "proved" and v["mode"] == "real" and v["bound"] == 2 and v["seconds"] >= 0
    # the solver budget: a step count per query (what decides) and the
    # wall-clock safety net
    assert v["smt_steps"] > 0 and 0 <= v["steps_used"] < v["smt_steps"] and v["smt_timeout"] > 0
    # a proof for every size, or the reason why not
    assert (v["all_sizes"] is True and "all_sizes_reason" not in v) or \
           (v["all_sizes"] is False and v["all_sizes_reason"])
' "$TMP/out" && PASS=$((PASS + 1)) || { FAIL=$((FAIL + 1)); echo "FAIL: --json fields"; }
# the first kernel (2mm: sums of products) is proved for all sizes, task by
# task, by raise --json and by verify --json alike
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
v = json.load(open(sys.argv[2]))
assert [t["verify"]["all_sizes"] for t in r["tasks"]] == [t["verify"]["all_sizes"] for t in v["tasks"]]
assert all(t["verify"]["all_sizes"] is True for t in r["tasks"]), r["tasks"]
# raise --json reports the solver budget it ran under, as verify does
assert all(t["verify"]["smt_steps"] > 0 and 0 <= t["verify"]["steps_used"] < t["verify"]["smt_steps"]
           and t["verify"]["smt_timeout"] > 0 for t in r["tasks"]), r["tasks"]
' "$rep" "$TMP/out" && PASS=$((PASS + 1)) || { FAIL=$((FAIL + 1)); echo "FAIL: all_sizes of $name"; }
grep -q "for all sizes" "$TMP/out" && FAIL=$((FAIL + 1)) && echo "FAIL: text in --json" || PASS=$((PASS + 1))
"$UPLIFT" verify "$f" "$rep" $(opts "$f") >"$TMP/text" 2>&1
grep -q "^task 0 (.*): proved (real, .*for all sizes" "$TMP/text" && PASS=$((PASS + 1)) || {
  FAIL=$((FAIL + 1)); echo "FAIL: the result line says for all sizes"; cat "$TMP/text"; }
# --smt-steps 1: every query that needs the solver runs out of steps, so
# the report is not proved (exit 3); those tasks are unknown, naming the
# option, and the others (decided by simplification) stay proved; the
# same again (a count, not time)
"$UPLIFT" verify "$f" "$rep" $(opts "$f") --json >"$TMP/dflt.json" 2>/dev/null
for run in 1 2; do
  expect_status 3 "--smt-steps 1: not proved (run $run)" "$UPLIFT" verify "$f" "$rep" $(opts "$f") --json --smt-steps 1
  cp "$TMP/out" "$TMP/steps$run.json"
done
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
again = json.load(open(sys.argv[3]))
assert s["proved"] is False
solver = 0
for td, ts, ta in zip(d["tasks"], s["tasks"], again["tasks"]):
    vd, vs = td["verify"], ts["verify"]
    assert vs["smt_steps"] == 1
    if vd["steps_used"] > 1:
        solver += 1
        assert vs["verdict"] == "unknown" and "--smt-steps" in vs["reason"], vs
    else:
        assert vs["verdict"] == vd["verdict"] == "proved", (vd, vs)
    assert (vs["verdict"], vs.get("reason"), vs["steps_used"]) == \
           (ta["verify"]["verdict"], ta["verify"].get("reason"), ta["verify"]["steps_used"])
assert solver > 0
' "$TMP/dflt.json" "$TMP/steps1.json" "$TMP/steps2.json" && PASS=$((PASS + 1)) || {
  FAIL=$((FAIL + 1)); echo "FAIL: --smt-steps 1 verdicts"; }
"$UPLIFT" verify "$f" "$rep" $(opts "$f") --smt-steps 1 >"$TMP/text" 2>&1
grep -q "unknown (real, .*of 1 solver steps per query.*: the query used up its 1 solver steps (--smt-steps)" "$TMP/text" &&
  PASS=$((PASS + 1)) || { FAIL=$((FAIL + 1)); echo "FAIL: the result line names the step budget"; cat "$TMP/text"; }
expect_status 2 "--smt-steps takes a count" "$UPLIFT" verify "$f" "$rep" --smt-steps -1
expect_status 2 "fp is a mode, none is not" "$UPLIFT" verify "$f" "$rep" --verify none
expect_status 2 "two files needed" "$UPLIFT" verify "$f"
expect_status 2 "missing report" "$UPLIFT" verify "$f" "$TMP/nope.json"
edit() { # edit OUT PYTHON-STATEMENT (on d, the report)
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
$2
json.dump(d, open(sys.argv[2], 'w'))" "$rep" "$1"
}
head -c 40 "$rep" >"$TMP/trunc.json"
expect_status 2 "malformed JSON" "$UPLIFT" verify "$f" "$TMP/trunc.json" $(opts "$f")
grep -q "error: not a JSON report" "$TMP/err" && PASS=$((PASS + 1)) || {
  FAIL=$((FAIL + 1)); echo "FAIL: malformed JSON message"; }
edit "$TMP/k.json" 'd["kernel"] = d["kernel"] + "_other"'
expect_status 2 "a report for another kernel" "$UPLIFT" verify "$f" "$TMP/k.json" $(opts "$f")
edit "$TMP/op.json" 'd["tasks"][0]["program"] = "no_such_op(" + d["tasks"][0]["program"] + ")"'
expect_status 2 "unknown op" "$UPLIFT" verify "$f" "$TMP/op.json" $(opts "$f")
grep -q "unknown op 'no_such_op'" "$TMP/err" && PASS=$((PASS + 1)) || {
  FAIL=$((FAIL + 1)); echo "FAIL: unknown op message"; }
edit "$TMP/t.json" 'd["tasks"][0]["task"] = 999'
expect_status 2 "a task the analysis does not have" "$UPLIFT" verify "$f" "$TMP/t.json" $(opts "$f")
edit "$TMP/miss.json" 'd["tasks"].pop()'
expect_status 3 "a task missing from the report" "$UPLIFT" verify "$f" "$TMP/miss.json" $(opts "$f")
edit "$TMP/null.json" 'd["tasks"][0]["program"] = None'
expect_status 3 "a task without a program" "$UPLIFT" verify "$f" "$TMP/null.json" $(opts "$f")
# A report over u8 data (element types i8 ... ui64 parse), re-checked
# against its own kernel, then against a kernel that adds the two values
# in f32 before scaling: the report's program (a*x + a*y) computes the same
# values there only up to rounding, which the store's truncation makes a
# difference of one, so it is not proved; nor is it refuted: at x = 255,
# y = 207 the source's sum is 462 in f32 (not 206, wrapped at u8), out of
# u8's range once scaled by 2, where C is undefined.
cat >"$TMP/u8a.c" <<'K'
#include <stdint.h>
void kernel_u8(int n, float a, const uint8_t *x, const uint8_t *y, uint8_t *out) {
  for (int i = 0; i < n; i++)
    out[i] = a * x[i] + a * y[i];
}
K
cat >"$TMP/u8b.c" <<'K'
#include <stdint.h>
void kernel_u8(int n, float a, const uint8_t *x, const uint8_t *y, uint8_t *out) {
  for (int i = 0; i < n; i++)
    out[i] = a * ((float)x[i] + (float)y[i]);
}
K
"$UPLIFT" raise "$TMP/u8a.c" --dialect hlo --json >"$TMP/u8.json" 2>"$TMP/err"
expect_status 0 "u8 report re-checked against its kernel" "$UPLIFT" verify "$TMP/u8a.c" "$TMP/u8.json"
expect_status 3 "u8 report against the f32 sum: not proved" "$UPLIFT" verify "$TMP/u8b.c" "$TMP/u8.json" --json
grep -q '"verdict":[[:space:]]*"unknown"' "$TMP/out" && PASS=$((PASS + 1)) || {
  FAIL=$((FAIL + 1)); echo "FAIL: u8 report against the f32 sum: want unknown"; cat "$TMP/out"; }
# two second differences (heat-3d's body in one dimension): the search
# writes 2.0*A as add(A, A), proved through the outcome key's p + p = 2*p;
# the same with one term's -2*C written (A[i+1] - 2*C) - A[i+1], equal in
# real arithmetic, is refuted at an infinite A[i+1] (inf against NaN)
cat >"$TMP/heat1.c" <<'K'
void heat1(int n, double A[n], double C[n], double B[n]) {
  for (int i = 1; i < n - 1; i++)
    B[i] = 0.125 * (A[i + 1] - 2.0 * A[i] + A[i - 1])
           + 0.125 * (C[i + 1] - 2.0 * C[i] + C[i - 1]) + A[i];
}
K
"$UPLIFT" raise -q "$TMP/heat1.c" --json -o "$TMP/heat1.json" 2>"$TMP/err"
check "heat1: add(A, A) for 2.0*A" grep -q "add(A, A)" "$TMP/heat1.json"
expect_status 0 "heat1: proved" "$UPLIFT" verify "$TMP/heat1.c" "$TMP/heat1.json"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
t = r["tasks"][0]
old = "subtract(slice[win=(1,1)](C):f64[n], add(C, C))"
new = ("add(slice[win=(1,1)](C):f64[n], subtract(subtract(slice[win=(1,1)](A):f64[n], "
       "add(C, C)), slice[win=(1,1)](A):f64[n]))")
t["program"], n = t["program"].replace(old, new, 1), t["program"].count(old)
json.dump(r, open(sys.argv[2], "w"))
sys.exit(n == 0)' "$TMP/heat1.json" "$TMP/heat1.bad.json"
check "heat1: a cancelling candidate is made" test -s "$TMP/heat1.bad.json"
expect_status 3 "heat1: the cancelling candidate is not proved" \
  "$UPLIFT" verify "$TMP/heat1.c" "$TMP/heat1.bad.json"
check "heat1: refuted at an infinity (inf against NaN)" \
  grep -q "refuted.*source inf, candidate -*nan" "$TMP/out"
report
