#!/bin/sh
# e2e_verify.sh - `uplift verify FILE.c REPORT.json` end to end: every kernel
# file found by glob that raises to hlo has its saved report re-checked and
# proved (exit 0); reports broken in generic ways (not JSON, another
# kernel, an unknown op, a task that does not exist) are bad input (exit 2);
# a report with a task left out or without its program is not proved
# (exit 3).
. tests/lib.sh

opts() { sed -n '1s|^// uplift: ||p' "$1"; }
first=""
for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c; do
  name=$(basename "$f" .c)
  "$UPLIFT" raise "$f" $(opts "$f") --json --timeout 20 >"$TMP/$name.json" 2>/dev/null || continue
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
' "$rep" "$TMP/out" && PASS=$((PASS + 1)) || { FAIL=$((FAIL + 1)); echo "FAIL: all_sizes of $name"; }
grep -q "for all sizes" "$TMP/out" && FAIL=$((FAIL + 1)) && echo "FAIL: text in --json" || PASS=$((PASS + 1))
"$UPLIFT" verify "$f" "$rep" $(opts "$f") >"$TMP/text" 2>&1
grep -q "^task 0 (.*): proved (real, .*for all sizes" "$TMP/text" && PASS=$((PASS + 1)) || {
  FAIL=$((FAIL + 1)); echo "FAIL: the result line says for all sizes"; cat "$TMP/text"; }
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
report
