#!/bin/sh
# e2e_batch.sh - uplift batch: over benchmarks/kernels with --jobs 2 it
# gives, line for line, the reports of one-by-one `raise --json` runs (the
# timing fields aside); a run given an OUT that already holds some kernels
# raises only the others (resume); the GNU parallel recipe of README.md
# (two local slots) gives the same lines; a kernel that does not parse or is
# not raised gets a line saying so; usage errors exit 2.
. tests/lib.sh
ROOT=$(pwd)

# the lines without timing fields, "exit" and key order: one per line
norm() {
  python3 -c '
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ("seconds", "synth_seconds", "exit")}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
for line in open(sys.argv[1]):
    print(json.dumps(strip(json.loads(line)), sort_keys=True))
' "$1"
}

# --- --jobs 2 against one-by-one raises
expect_status 0 "batch --jobs 2 benchmarks/kernels" "$UPLIFT" batch --jobs 2 \
  -o "$TMP/all.jsonl" benchmarks/kernels
cp "$TMP/err" "$TMP/summary"
: >"$TMP/one.jsonl"
for f in benchmarks/kernels/*.c; do
  "$UPLIFT" raise "$f" --json -q | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))' >>"$TMP/one.jsonl"
done
n=$(ls benchmarks/kernels/*.c | wc -l)
check "one line per kernel file" test "$(wc -l <"$TMP/all.jsonl")" -eq "$n"
norm "$TMP/all.jsonl" >"$TMP/all.norm"; norm "$TMP/one.jsonl" >"$TMP/one.norm"
check "batch lines = one-by-one reports" cmp "$TMP/all.norm" "$TMP/one.norm"
check "lines in sorted file order" python3 -c '
import json, sys
files = [json.loads(l)["file"] for l in open(sys.argv[1])]
assert files == sorted(files) and files[0].startswith("benchmarks/kernels/"), files
' "$TMP/all.jsonl"
check "every line has exit 0" python3 -c '
import json, sys
assert all(json.loads(l)["exit"] == 0 for l in open(sys.argv[1]))' "$TMP/all.jsonl"
check "summary: header" grep -q "^file  *kernel  *raised  *proved  *seconds" "$TMP/summary"
check "summary: a row per kernel" test "$(grep -c '^benchmarks/kernels/.* yes ' "$TMP/summary")" -eq "$n"
check "summary: totals" grep -q "^$n kernel files raised now, 0 skipped" "$TMP/summary"

# --- resume: OUT pre-seeded with all lines but the last two
head -n $((n - 2)) "$TMP/all.jsonl" >"$TMP/resume.jsonl"
expect_status 0 "batch resume" "$UPLIFT" batch --jobs 2 -o "$TMP/resume.jsonl" benchmarks/kernels
check "resume: says what it skipped" grep -q "$((n - 2)) of $n kernel files already in" "$TMP/err"
check "resume: raised only the others" grep -q "^2 kernel files raised now, $((n - 2)) skipped" "$TMP/err"
norm "$TMP/resume.jsonl" >"$TMP/resume.norm"
check "resume: the same lines" cmp "$TMP/resume.norm" "$TMP/all.norm"
expect_status 0 "batch rerun: nothing left" "$UPLIFT" batch -o "$TMP/resume.jsonl" benchmarks/kernels
check "rerun: nothing raised" grep -q "^0 kernel files raised now, $n skipped" "$TMP/err"
check "rerun: file unchanged" test "$(wc -l <"$TMP/resume.jsonl")" -eq "$n"

# --- the GNU parallel recipe of README.md, two local slots
parallel --will-cite -S 2/: --workdir . "$UPLIFT" batch {} \
  ::: benchmarks/kernels/*.c >"$TMP/par.jsonl" 2>"$TMP/par.err"
check "parallel: exit 0" test $? -eq 0
python3 -c '
import json, sys
ls = sorted(open(sys.argv[1]), key=lambda l: json.loads(l)["file"])
open(sys.argv[2], "w").writelines(ls)' "$TMP/par.jsonl" "$TMP/par.sorted"
norm "$TMP/par.sorted" >"$TMP/par.norm"
check "parallel: the same lines (sorted by file)" cmp "$TMP/par.norm" "$TMP/all.norm"

# --- failures get a line; the exit status says so
cat >"$TMP/bad.c" <<'K'
void kernel_bad(int n, double *a) { for (int i = 0; i < n; i++) a[i] = ; }
K
expect_status 1 "batch with a file that does not parse" "$UPLIFT" batch "$TMP/bad.c" \
  benchmarks/kernels/gemm.c
check "bad file: a line with exit 2 and the reason" python3 -c '
import json, sys
ls = [json.loads(l) for l in open(sys.argv[1])]
assert [l["file"] for l in ls] == [sys.argv[2], "benchmarks/kernels/gemm.c"], ls
assert ls[0]["exit"] == 2 and ls[0]["raised"] is False and "error" in ls[0]["reason"], ls[0]
assert ls[1]["exit"] == 0 and ls[1]["raised"] is True
' "$TMP/out" "$TMP/bad.c"
expect_status 1 "batch: a kernel not raised" "$UPLIFT" batch --max-ops 1 --dialect linalg \
  benchmarks/kernels/doitgen.c
check "not raised: exit 1 and the reason in the line" python3 -c '
import json, sys
l = json.loads(open(sys.argv[1]).read())
assert l["exit"] == 1 and l["raised"] is False and "output A" in l["reason"], l
' "$TMP/out"

# --- usage
expect_status 2 "batch: no file" "$UPLIFT" batch
expect_status 2 "batch: missing path" "$UPLIFT" batch "$TMP/nosuch"
check "missing path: message" grep -q "no such file or folder" "$TMP/err"
expect_status 2 "batch: --json refused" "$UPLIFT" batch --json benchmarks/kernels/gemm.c
check "--json: message" grep -q "not one batch takes" "$TMP/err"
expect_status 2 "batch: --jobs 0" "$UPLIFT" batch --jobs 0 benchmarks/kernels/gemm.c
expect_status 0 "batch --help" "$UPLIFT" batch --help
check "help: usage and exit statuses" sh -c "head -n 1 '$TMP/out' | grep -q '^usage: uplift batch' && grep -q '^exit status: 0' '$TMP/out'"
report
