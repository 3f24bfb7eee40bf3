#!/bin/sh
# e2e_explore.sh - uplift explore and uplift rewrites end to end: explore's
# counts are identical across runs and thread counts, --targets prints a
# coverage matrix, bad --inputs exit 2, rewrites' PDLL compiles with
# mlir-pdll-16 and every printed rule is proved; a step budget too small
# for the solver (--smt-steps 1) leaves the rules that need it unproved,
# saying so.
. tests/lib.sh
IN="A:f64[m,k],x:f64[k],alpha:f64[]"
$UPLIFT explore --dialect hlo --inputs "$IN" --max-ops 2 --json --threads 1 >"$TMP/e1.json"
$UPLIFT explore --dialect hlo --inputs "$IN" --max-ops 2 --json --threads 1 >"$TMP/e2.json"
$UPLIFT explore --dialect hlo --inputs "$IN" --max-ops 2 --json --threads 2 >"$TMP/e3.json"
check "explore counts stable across runs" cmp "$TMP/e1.json" "$TMP/e2.json"
check "explore counts stable across thread counts" cmp "$TMP/e1.json" "$TMP/e3.json"
check "explore finds distinct programs of size 2" \
  python3 -c "import json,sys; d=json.load(open('$TMP/e1.json')); s=d['sizes']; sys.exit(not (len(s)==3 and s[2]['distinct']>0 and s[0]['distinct']==5 and d['complete']))"
check "explore names the smallest matvec" grep -q '"smallest":.*dot_general.*(A, x)' "$TMP/e1.json"
expect_status 0 "explore text" $UPLIFT explore --dialect linalg --inputs "x:f64[n],y:f64[n]" --max-ops 1
check "text has per-size lines" grep -q "^size 1:" "$TMP/out"
expect_status 2 "bad --inputs syntax" $UPLIFT explore --dialect hlo --inputs "A:f64[m,k"
check "bad --inputs message" grep -q "expected" "$TMP/err"
expect_status 2 "bad element type" $UPLIFT explore --dialect hlo --inputs "A:i8[m]"
expect_status 2 "no inputs nor targets" $UPLIFT explore --dialect hlo
mkdir -p "$TMP/k"
cp benchmarks/kernels/c99/saxpy_down.c benchmarks/kernels/c99/absdiff.c "$TMP/k/"
expect_status 0 "explore --targets" $UPLIFT explore --dialect hlo,linalg --targets "$TMP/k" --max-ops 3
check "coverage matrix lists saxpy" grep -q "^saxpy_down.c *[0-9]" "$TMP/out"
$UPLIFT explore --dialect hlo,linalg --targets "$TMP/k" --max-ops 3 --json >"$TMP/t.json"
check "coverage json" python3 -c "import json,sys; d=json.load(open('$TMP/t.json')); sys.exit(not (len(d['kernels'])==2 and d['kernels'][1]['coverage']['hlo']['expressed']))"
# --dialect takes any number of dialects: twenty names, twenty columns
mkdir -p "$TMP/none"
many=hlo; i=1; while [ $i -lt 20 ]; do many="$many,linalg"; i=$((i + 1)); done
$UPLIFT explore --dialect "$many" --targets "$TMP/none" --json >"$TMP/many.json"
check "coverage: twenty dialects, twenty columns" python3 -c "import json,sys; d=json.load(open('$TMP/many.json')); sys.exit(len(d['dialects']) != 20)"
# rewrites (--timeout 1800: only a hang guard; rewrites has no wall-clock
# budget by default, and these checks are about the rules, not the speed)
expect_status 0 "rewrites json" $UPLIFT rewrites --dialect hlo --inputs "x:f64[n],a:f64[]" --max-ops 1 --emit json --timeout 1800
cp "$TMP/out" "$TMP/r.json"
check "rewrites: some rules, every printed rule proved" \
  python3 -c "import json,sys; d=json.load(open('$TMP/r.json')); r=d['rules']; sys.exit(not (len(r)>3 and all(x['real']=='proved' for x in r)))"
check "rewrites: add(x, 0) -> x found" grep -q '"lhs":.*"add(x, 0)"' "$TMP/r.json"
expect_status 0 "rewrites pdll" $UPLIFT rewrites --dialect hlo --inputs "x:f64[n],a:f64[]" --max-ops 2 --no-fp --timeout 1800 --emit pdll -o "$TMP/r.pdll"
check "pdll has patterns" grep -q "^Pattern Rule" "$TMP/r.pdll"
check "pdll compiles with mlir-pdll-16" mlir-pdll-16 "$TMP/r.pdll" -x=mlir -o "$TMP/r.mlir"
expect_status 0 "rewrites linalg pdll" $UPLIFT rewrites --dialect linalg --inputs "x:f64[n]" --max-ops 2 --no-fp --timeout 1800 --emit pdll -o "$TMP/l.pdll"
check "linalg pdll compiles" mlir-pdll-16 "$TMP/l.pdll" -x=mlir -o "$TMP/l.mlir"
# mlir-pdll-16 reports an attribute it cannot parse (a dialect attribute:
# no dialect is loaded there) and still exits 0, with the constraint
# dropped: such a rule must be a comment, so the compilers say nothing
check "pdll: mlir-pdll-16 reports no error (no constraint dropped)" \
  sh -c "mlir-pdll-16 '$TMP/r.pdll' -x=mlir 2>&1 >/dev/null | (! grep -q error) && mlir-pdll-16 '$TMP/l.pdll' -x=mlir 2>&1 >/dev/null | (! grep -q error)"
check "pdll: the rules that are no PDL pattern are listed with the reason" \
  grep -q "^// not a PDL pattern (an op with a body region" "$TMP/l.pdll"
check "pdll: hlo is said to be no upstream MLIR 16 dialect" grep -q "not in upstream MLIR 16" "$TMP/r.pdll"
# a search whose tables overflow (three dims give more than the table's
# value types at 2 ops) is reported as incomplete, never as finished
expect_status 1 "explore: a table limit is an incomplete search" \
  $UPLIFT explore --dialect hlo --inputs "x:f64[n,m,p]" --max-ops 2
check "explore names the table limit" grep -q "incomplete: a table limit of the search" "$TMP/out"
$UPLIFT explore --dialect hlo --inputs "x:f64[n,m,p]" --max-ops 2 --json >"$TMP/l.json"
check "explore json: not complete, the limit named" \
  python3 -c "import json,sys; d=json.load(open('$TMP/l.json')); sys.exit(not (not d['complete'] and 'value types' in d['limit']))"
expect_status 0 "rewrites over a search that hits a table limit" \
  $UPLIFT rewrites --dialect hlo --inputs "x:f64[n,m,p]" --max-ops 2 --no-fp --bound 1 --smt-timeout 1 --timeout 1800
check "rewrites names the table limit" grep -q "^# incomplete: a table limit of the search" "$TMP/out"
# the solver's step budget (--smt-steps): too small, the rules that need
# the solver are not proved and say why; the default proves them
expect_status 0 "rewrites --smt-steps 1" \
  $UPLIFT rewrites --dialect hlo --inputs "x:f64[n]" --max-ops 1 --no-fp --bound 1 --smt-steps 1
check "rewrites --smt-steps 1: not proved, naming --smt-steps" \
  grep -q "^# unknown: .*unknown: the query used up its 1 solver steps (--smt-steps)" "$TMP/out"
expect_status 0 "rewrites, default steps" \
  $UPLIFT rewrites --dialect hlo --inputs "x:f64[n]" --max-ops 1 --no-fp --bound 1
check "rewrites, default steps: the rules that needed the solver are not unknown" \
  sh -c "! grep -q 'solver steps' '$TMP/out'"
check "rewrites, default steps: rules proved" grep -q "^subtract(x, 0) -> x    \[real: proved\]" "$TMP/out"
# determinism: solver limits are counted in steps and rewrites has no
# wall-clock budget by default, so the same command prints the same bytes
# alone (one thread) and beside a CPU-burning job (two threads); a step
# limit that some queries use up makes the unknown ones part of the output
RW="rewrites --dialect linalg --inputs x:f64[n],y:f64[n] --max-ops 2 --smt-steps 1000"
# (LOAD_JOB=0, CI's sanitizer run: no CPU-burning job, which there would
# only slow the other worker; the plain run has it)
$UPLIFT $RW --threads 1 >"$TMP/d1.txt"
BURN=""
if [ "${LOAD_JOB:-1}" = 1 ]; then
  timeout 900 sh -c 'while :; do :; done' &
  BURN=$!
fi
$UPLIFT $RW --threads 2 >"$TMP/d2.txt"
[ -z "$BURN" ] || kill $BURN
check "rewrites: the same output alone and with two threads${BURN:+ under load}" cmp "$TMP/d1.txt" "$TMP/d2.txt"
check "rewrites: the step limit left some rules unknown" grep -q "^# unknown: .*the query used up its 1000 solver steps" "$TMP/d1.txt"
check "rewrites: and proved others" grep -q "^[a-z].* -> .*\[real: proved" "$TMP/d1.txt"
expect_status 2 "rewrites --smt-steps takes a count" $UPLIFT rewrites --dialect hlo --inputs "x:f64[n]" --smt-steps x
expect_status 2 "rewrites bad --emit" $UPLIFT rewrites --dialect hlo --inputs "x:f64[n]" --emit dot
expect_status 2 "rewrites bad --inputs" $UPLIFT rewrites --dialect hlo --inputs "x f64"
report
