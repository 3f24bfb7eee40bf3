#!/bin/sh
# e2e_ux.sh - the command line as a new user meets it: `make install`
# (PREFIX, DESTDIR) gives a binary that works from any folder, --version,
# the messages of common mistakes (an unknown dialect, swapped verify
# arguments, options that do not combine, an out-of-range subscript), help
# texts in one form, no -o file after a failed raise, and the JSON report of
# a failed raise (no entry for an output that was never searched); what
# --check compared (stderr and JSON); a dialect without the kernel's
# element type (exit 4, the --element-type hint) and --element-type f32;
# explore --targets with -D; --max-ops named per sub-goal; a comment at the
# top of the MLIR output; each task's result lines as it is done and, on a
# terminal (a pty), the progress line of raise, explore --targets and
# rewrites; linalg's x times a scalar as a linalg.map, region bodies
# indented; rewrites' legend of the modes and the IEEE values behind a
# refutation.
. tests/lib.sh
ROOT=$(pwd)
K=$ROOT/benchmarks/kernels/gemm.c

# --- make install into a staging folder; run the installed binary elsewhere
san=""; case "$UPLIFT" in build-san/*) san="SAN=1" ;; esac
check "make install PREFIX DESTDIR" make -s install $san PREFIX=/opt/up DESTDIR="$TMP/stage"
BIN=$TMP/stage/opt/up/bin/uplift
check "installed binary" test -x "$BIN"
check "installed dialects" test -f "$TMP/stage/opt/up/share/uplift/dialects/hlo"
check "installed polybench.h" test -f "$TMP/stage/opt/up/share/uplift/frontend/include/polybench.h"
mkdir -p "$TMP/elsewhere"
(cd "$TMP/elsewhere" && "$BIN" raise -q "$K" --check >out.mlir 2>err)
check "installed binary raises and checks from another folder" test $? -eq 0
check "its output is MLIR" grep -q "func.func @kernel_gemm" "$TMP/elsewhere/out.mlir"
(cd "$TMP/elsewhere" && "$BIN" raise -q "$K" --dialect tosa -D DATA_TYPE_IS_FLOAT >/dev/null 2>&1)
check "installed binary finds tosa" test $? -eq 0
(cd "$TMP/elsewhere" && "$BIN" dialects) >"$TMP/dl" 2>&1
check "installed binary lists its dialects" grep -q "^linalg" "$TMP/dl"
check "make uninstall" make -s uninstall $san PREFIX=/opt/up DESTDIR="$TMP/stage"
check "uninstalled" test ! -e "$BIN" -a ! -e "$TMP/stage/opt/up/share/uplift"

# --- version
expect_status 0 "--version" "$UPLIFT" --version
check "--version line" grep -Eq "^uplift [0-9]+\.[0-9]+\.[0-9]+$" "$TMP/out"
expect_status 0 "version" "$UPLIFT" version
check "version line" grep -Eq "^uplift [0-9]+\.[0-9]+\.[0-9]+$" "$TMP/out"

# --- an unknown dialect names the valid ones
for cmd in "raise $K" "explore --inputs x:f64[n]" "dialects"; do
  expect_status 2 "$cmd: unknown dialect" "$UPLIFT" $cmd --dialect nosuch
  [ "$cmd" = dialects ] && expect_status 2 "dialects: unknown dialect" "$UPLIFT" dialects nosuch
  check "$cmd: names the dialects" grep -q "unknown dialect 'nosuch'; the dialects are hlo, linalg, tosa" "$TMP/err"
done

# --- verify with its arguments swapped
"$UPLIFT" raise -q "$K" --json >"$TMP/r.json" 2>/dev/null
expect_status 2 "verify REPORT FILE" "$UPLIFT" verify "$TMP/r.json" "$K"
check "verify says swapped" grep -q "is a JSON report, not a C file: the arguments are FILE.c REPORT.json" "$TMP/err"

# --- options that do not combine
refuse() { # refuse SUBSTRING OPTIONS... (lib.sh's helpers set desc and want)
  r_msg=$1; shift
  expect_status 2 "raise $* refused" "$UPLIFT" raise "$K" "$@"
  check "raise $*: message" grep -q -- "$r_msg" "$TMP/err"
  check "raise $*: no output" test ! -s "$TMP/out"
}
refuse "does not combine with --emit" --emit c --json
refuse "does not combine with --emit" --emit mlir --json
refuse "does not combine with --emit c" --emit c --shapes dynamic
refuse "does not combine with --json" --json --shapes dynamic
refuse "do not combine with --verify none" --verify none --bound 2
refuse "do not combine with --verify none" --smt-timeout 5 --verify none
refuse "do not combine with --verify none" --smt-steps 1000 --verify none

# --- -o FILE: nothing written when the raise fails
expect_status 1 "raise not raised (--max-ops 1, linalg)" "$UPLIFT" raise -q \
  "$ROOT/benchmarks/kernels/doitgen.c" --dialect linalg --max-ops 1 -o "$TMP/fail.mlir"
check "-o: no file after a failed raise" test ! -e "$TMP/fail.mlir"
expect_status 0 "raise -o" "$UPLIFT" raise -q "$K" -o "$TMP/ok.mlir"
check "-o: the file after a raise" grep -q "func.func" "$TMP/ok.mlir"
check "-o: nothing on stdout" test ! -s "$TMP/out"

# --- the JSON report of a failed raise: only the outputs searched
expect_status 1 "raise --json not raised" "$UPLIFT" raise -q \
  "$ROOT/benchmarks/kernels/doitgen.c" --dialect linalg --max-ops 1 --json
check "failed report: one entry, the output that failed" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
ts = d['tasks']
assert d['raised'] is False and 'task 0 (output A)' in d['reason']
assert [(t['task'], t['outputs'], t['program']) for t in ts] == [(0, ['A'], None)], ts
" "$TMP/out"

# --- out-of-range subscripts are named by ordinal
cat >"$TMP/oob.c" <<'K'
void kernel_oob(int n, double A[n][n]) {
  for (int i = 0; i < n; i++)
    A[i][i + 1] = 1.0;
}
K
expect_status 2 "run: out-of-range subscript" "$UPLIFT" run "$TMP/oob.c" --sizes n=3
check "says 'the second subscript'" grep -q "the second subscript must be in 0..2" "$TMP/err"

# --- --check says what it compared, on stderr and in the JSON report
expect_status 0 "raise --check" "$UPLIFT" raise -q "$K" --check
check "--check: a line on success" grep -Eq "^uplift raise: --check: the raised program agrees with the natively compiled original exactly: [1-9][0-9]* output elements at [1-9][0-9]* size assignments \(ni=[0-9]+ nj=[0-9]+ nk=[0-9]+;" "$TMP/err"
check "MLIR output starts with a comment saying what it is" sh -c "head -n 1 '$TMP/out' | grep -q '^// kernel_gemm raised from .*gemm.c by uplift (dialect hlo)'"
expect_status 0 "raise --check --json" "$UPLIFT" raise -q "$K" --check --json
check "--json: a check object" python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['check']
assert c['agree'] is True and c['against'] == 'native' and c['rtol'] == 0, c
assert len(c['sizes']) >= 2 and all(set(s) == {'ni', 'nj', 'nk'} for s in c['sizes']), c
n = sum(s['ni'] * s['nj'] for s in c['sizes'])  # the output C of every run
assert c['elements'] == n, (c['elements'], n)
" "$TMP/out"
expect_status 0 "raise --json without --check" "$UPLIFT" raise -q "$K" --json
check "--json without --check: no check object" python3 -c "
import json, sys
assert 'check' not in json.load(open(sys.argv[1]))" "$TMP/out"

# --- a dialect without the kernel's element type: exit 4 and the hint
expect_status 4 "tosa on a double kernel" "$UPLIFT" raise -q "$K" --dialect tosa
check "tosa: names f64 and hints --element-type f32" grep -q "dialect tosa has no f64 element type (the kernel's data type); raise it as f32 with --element-type f32" "$TMP/err"
expect_status 4 "tosa on a double kernel, --json" "$UPLIFT" raise -q "$K" --dialect tosa --json -o "$TMP/t4.json"
check "tosa --json: the report says why" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['raised'] is False and '--element-type f32' in d['reason'] and d['tasks'] == [], d
" "$TMP/t4.json"
expect_status 0 "tosa --element-type f32 --check" "$UPLIFT" raise -q "$K" --dialect tosa --element-type f32 --check
check "f32: the rounding stated in the output" grep -q "^// the kernel is written in f64 and raised as f32 (--element-type f32): .*rounded to f32" "$TMP/out"
check "f32: f32 tensors of the file's extents" grep -q "tensor<1000x1100xf32>" "$TMP/out"
check "f32: checked against the double original within a tolerance" grep -q "agrees with the natively compiled original within relative tolerance" "$TMP/err"
check "f32: mlir-opt-16 accepts it" mlir-opt-16 "$TMP/out"
expect_status 0 "tosa --element-type f32 --json" "$UPLIFT" raise -q "$K" --dialect tosa --element-type f32 --json
check "f32: element_type in the JSON" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
e = d['element_type']
assert d['raised'] and e['written'] == 'f64' and e['raised'] == 'f32' and 'rounded to f32' in e['rounding'], d
" "$TMP/out"
expect_status 0 "--element-type f64 on a double kernel changes nothing" "$UPLIFT" raise -q "$K" --element-type f64 --json
check "f64 as written: no element_type" python3 -c "
import json, sys
assert 'element_type' not in json.load(open(sys.argv[1]))" "$TMP/out"
expect_status 2 "--element-type i8" "$UPLIFT" raise "$K" --element-type i8
check "--element-type i8: message" grep -q "expects f32 or f64" "$TMP/err"
refuse "does not combine with --element-type" --emit c --element-type f32
expect_status 4 "explore: tosa has no f64 (--inputs)" "$UPLIFT" explore --dialect tosa --inputs "x:f64[n]"
for cmd in raise explore rewrites; do
  "$UPLIFT" $cmd --help 2>&1 | tr '\n' ' ' >"$TMP/h"
  check "$cmd --help: exit status 4" grep -q "4 the dialect has not" "$TMP/h"
done

# --- explore --targets takes -D like raise
mkdir -p "$TMP/targets" && cp "$K" "$TMP/targets/"
expect_status 0 "explore --targets (tosa, double)" "$UPLIFT" explore --dialect tosa --targets "$TMP/targets" --json
check "explore: without -D the element type is refused" grep -q "has no f64 element type" "$TMP/out"
expect_status 0 "explore --targets -D DATA_TYPE_IS_FLOAT" "$UPLIFT" explore --dialect tosa --targets "$TMP/targets" --json -D DATA_TYPE_IS_FLOAT
check "explore: with -D the kernel is float" sh -c "! grep -q 'element type' '$TMP/out'"
expect_status 2 "explore --inputs with -D refused" "$UPLIFT" explore --dialect hlo --inputs "x:f64[n]" -D X
check "explore -D with --inputs: message" grep -q "do not combine with --inputs" "$TMP/err"

# --- --max-ops is per sub-goal: help, message, and a program above the limit
"$UPLIFT" raise --help >"$TMP/h" 2>&1
check "raise --help: --max-ops per sub-goal" grep -q "largest program searched per sub-goal" "$TMP/h"
expect_status 1 "raise --max-ops 1 not raised" "$UPLIFT" raise -q "$ROOT/benchmarks/kernels/doitgen.c" --dialect linalg --max-ops 1
check "the reason says per sub-goal" grep -q "no program of at most 1 ops per sub-goal found (--max-ops)" "$TMP/err"
expect_status 0 "raise --max-ops 1 raised" "$UPLIFT" raise -q "$K" --max-ops 1 --json
check "--max-ops 1: a program of more ops (sub-goals)" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['raised'] and max(t['ops'] for t in d['tasks']) > 1, d['tasks']
" "$TMP/out"

# --- static shapes: the file's extents, --sizes, else dynamic; said at the top
expect_status 0 "raise: static shapes from the dataset macros" "$UPLIFT" raise -q "$K" --verify none
check "shapes comment: the file's extents" grep -q "^// shapes: static, the extents the file declares for its arrays" "$TMP/out"
check "sizes comment" grep -q "^// sizes: ni=1000 nj=1100 nk=1200$" "$TMP/out"
check "C is 1000x1100" grep -q "%C: tensor<1000x1100xf64>" "$TMP/out"
cp "$TMP/out" "$TMP/static.mlir"
check "mlir-opt-16 parses the static hlo output" mlir-opt-16 --allow-unregistered-dialect "$TMP/static.mlir"
expect_status 0 "raise: -D MINI_DATASET" "$UPLIFT" raise -q "$K" --verify none -D MINI_DATASET
check "MINI_DATASET: 20x25" grep -q "%C: tensor<20x25xf64>" "$TMP/out"
expect_status 0 "raise --sizes" "$UPLIFT" raise -q "$K" --verify none --sizes ni=2,nj=3,nk=4 --dialect linalg
check "--sizes: said" grep -q "^// shapes: static, the sizes given by --sizes" "$TMP/out"
check "--sizes: C is 2x3, A 2x4" grep -q "%C: tensor<2x3xf64>, %A: tensor<2x4xf64>" "$TMP/out"
cp "$TMP/out" "$TMP/sizes.mlir"
check "mlir-opt-16 verifies the --sizes linalg output" mlir-opt-16 "$TMP/sizes.mlir"
expect_status 2 "--sizes missing a size" "$UPLIFT" raise -q "$K" --sizes ni=2,nj=3
check "--sizes missing: message" grep -q "does not give size 'nk'" "$TMP/err"
refuse "does not combine with --json" --sizes ni=2,nj=3,nk=4 --json
refuse "does not combine with --json, --emit c or --shapes dynamic" --sizes ni=2,nj=3,nk=4 --shapes dynamic
cat >"$TMP/plain.c" <<'K'
void kernel_scale(int n, double x[n], double y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}
K
expect_status 0 "raise: no declared extents" "$UPLIFT" raise -q "$TMP/plain.c" --verify none
check "no extents: dynamic, said" grep -q "^// shapes: dynamic, as no extents the file declares give every size (--sizes chooses static ones)" "$TMP/out"
check "no extents: ? dims" grep -q "%x: tensor<?xf64>" "$TMP/out"
cp "$TMP/out" "$TMP/dyn.mlir"
check "mlir-opt-16 parses the dynamic output" mlir-opt-16 --allow-unregistered-dialect "$TMP/dyn.mlir"
# a Polybench file whose loops fit its declared extents only under an
# assumption: no static shapes, and no diagnostic of the extents' parse
cat >"$TMP/short.c" <<'K'
#include <polybench.h>
#define N 2000
void kernel_short(int n, DATA_TYPE POLYBENCH_1D(r,N,n), DATA_TYPE POLYBENCH_1D(y,N,n)) {
  for (int i = 0; i < n - 1; i++)
    y[i] = 2.0 * r[i];
}
K
expect_status 0 "raise: extents that do not give the sizes" "$UPLIFT" raise -q "$TMP/short.c" --verify none
check "short: dynamic" grep -q "^// shapes: dynamic, as no extents" "$TMP/out"
check "short: nothing on stderr" test ! -s "$TMP/err"
expect_status 2 "--shapes static without extents" "$UPLIFT" raise -q "$TMP/plain.c" --verify none --shapes static
check "--shapes static without extents: message" grep -q "declares no extents for the sizes of kernel_scale; give them with --sizes" "$TMP/err"
check "--shapes static without extents: no output" test ! -s "$TMP/out"
expect_status 0 "--shapes dynamic on a Polybench file" "$UPLIFT" raise -q "$K" --verify none --shapes dynamic
check "--shapes dynamic: said" grep -q "^// shapes: dynamic (--shapes dynamic)" "$TMP/out"

# --- dynamic tosa: a reshape to several `?` dims lowers (tensor.expand_shape
# of the operand's core, not tosa.reshape, which MLIR 16 cannot lower then)
LOWER="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))"
for k in gemm 2mm; do
  expect_status 0 "$k: tosa --shapes dynamic" "$UPLIFT" raise -q "$ROOT/benchmarks/kernels/$k.c" --dialect tosa --element-type f32 --shapes dynamic --verify none
  cp "$TMP/out" "$TMP/$k.dyn.mlir"
  check "$k: dynamic tosa has a reshape to several ? dims" grep -q "tensor.expand_shape .* into tensor<1x?x?xf32>" "$TMP/$k.dyn.mlir"
  check "$k: no tosa.reshape with two -1" sh -c "! grep -q 'new_shape = array<i64: [^>]*-1[^>]*-1' '$TMP/$k.dyn.mlir'"
  check "$k: dynamic tosa lowers (mlir-opt-16 tosa-to-linalg, tosa-to-tensor)" mlir-opt-16 --pass-pipeline="$LOWER" "$TMP/$k.dyn.mlir"
done
# --- dynamic tosa: an elementwise op broadcasting operands with a unit dim
# beside several `?` dims (doitgen's add of ?x1x? and 1x?x?) lowers: each
# operand is broadcast to the result's shape first (linalg.broadcast)
expect_status 0 "doitgen: tosa --shapes dynamic" "$UPLIFT" raise -q "$ROOT/benchmarks/kernels/doitgen.c" --dialect tosa --element-type f32 --shapes dynamic --verify none
cp "$TMP/out" "$TMP/doitgen.dyn.mlir"
check "doitgen: dynamic tosa broadcasts a ?x1x? operand first" grep -q "linalg.broadcast ins(%[a-z0-9_]* : tensor<?x?xf32>) outs(%[a-z0-9_]* : tensor<?x?x?xf32>) dimensions = \[1\]" "$TMP/doitgen.dyn.mlir"
check "doitgen: no tosa.add with operands of other shapes" sh -c "! grep -q '\"tosa.add\"(.*tensor<?x1x' '$TMP/doitgen.dyn.mlir'"
check "doitgen: dynamic tosa lowers (mlir-opt-16 tosa-to-linalg, tosa-to-tensor)" mlir-opt-16 --pass-pipeline="$LOWER" "$TMP/doitgen.dyn.mlir"

# --- help texts: 'usage:' in lower case, exit statuses at the end
for cmd in raise analyze run dump verify explore rewrites dialects batch; do
  expect_status 0 "$cmd --help" "$UPLIFT" $cmd --help
  check "$cmd --help starts with usage:" sh -c "head -n 1 '$TMP/out' | grep -q '^usage: uplift $cmd'"
  check "$cmd --help lists exit statuses" grep -q "^exit status: 0" "$TMP/out"
done
# the solver's budget: a step count that decides, wall clock only as a net
for cmd in raise verify rewrites; do
  "$UPLIFT" $cmd --help >"$TMP/h" 2>&1
  check "$cmd --help: --smt-steps is a count" grep -q -- "--smt-steps N .*Z3 resource units per solver query" "$TMP/h"
  check "$cmd --help: --smt-timeout is wall clock" grep -q -- "--smt-timeout S .*wall-clock seconds" "$TMP/h"
done

# --- progress and per-task result lines (README, `uplift raise FILE.c`)
# Not on a terminal: the result lines of each task as it is done (a failed
# raise shows the tasks done before the failing one), no progress redraws.
cat >"$TMP/two.c" <<'EOF'
void two(int n, double A[n], double B[n], double C[n]) {
  for (int i = 0; i < n; i++)
    B[i] = 2.0 * A[i];
  for (int i = 0; i < n; i++)
    C[i] = exp(exp(A[i]) + B[i]);
}
EOF
# (task 1 has no sub-goals inside the calls: three ops in one search; a
# sum of three terms would be found one op per round, its partial sums
# being sub-goals)
expect_status 1 "two: task 1 not raised (--max-ops 1)" "$UPLIFT" raise "$TMP/two.c" --dialect linalg --max-ops 1
check "two: task 0's result line although task 1 failed" grep -q "^task 0 B: 1 ops, .*; proved (" "$TMP/err"
check "two: task 0's line before the failure" sh -c "grep -n '^task 0 B\|not raised: task 1' '$TMP/err' | head -n 1 | grep -q 'task 0 B'"
check "two: no task 1 result line" sh -c "! grep -q '^task 1' '$TMP/err'"
expect_status 0 "gemm raised (not a terminal)" "$UPLIFT" raise "$K"
cp "$TMP/err" "$TMP/plain.err"
check "not a terminal: task lines in order" sh -c "grep -o '^task [0-9]' '$TMP/plain.err' | tr '\n' , | grep -qx 'task 0,task 1,'"
check "not a terminal: no progress redraws" sh -c "! grep -q \"\$(printf '\r')\" '$TMP/plain.err' && ! grep -q 'budget' '$TMP/plain.err'"
# On a terminal (a pty from script(1) or python3's pty module): the
# progress line with the elapsed time, the budget and task i of n, and the
# same result lines as each task is done.
on_tty() { # on_tty OUT CMD...: run CMD with its stdin, stdout, stderr on a pty
  o=$1; shift
  if command -v script >/dev/null 2>&1; then
    q=""; for a in "$@"; do q="$q '$a'"; done # (no quote in the tests' arguments)
    script -qec "$q" /dev/null </dev/null >"$o"
  else
    python3 -c 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)' "$@" </dev/null >"$o"
  fi
}
on_tty "$TMP/tty" "$UPLIFT" raise "$K" --timeout 90 -o "$TMP/tty.mlir"
check "terminal: raised" test -s "$TMP/tty.mlir"
tr '\r' '\n' <"$TMP/tty" | sed 's/\x1b\[K//g' >"$TMP/tty.lines"
check "terminal: progress with elapsed time, budget, task 1 of 2" grep -Eq "^uplift raise: [0-9]+\.[0-9] s of 90 s budget, task 0 \(C\), 1 of 2: " "$TMP/tty.lines"
check "terminal: progress of task 2 of 2" grep -Eq "^uplift raise: [0-9]+\.[0-9] s of 90 s budget, task 1 \(C\), 2 of 2: " "$TMP/tty.lines"
check "terminal: the same result lines" sh -c "grep '^task [0-9]' '$TMP/tty.lines' | sed 's/[0-9.]* s//g' >'$TMP/a'; grep '^task [0-9]' '$TMP/plain.err' | sed 's/[0-9.]* s//g' >'$TMP/b'; test -s '$TMP/a' && cmp -s '$TMP/a' '$TMP/b'"
check "terminal: task 0's result before task 1's progress" sh -c "grep -n '^task 0 C\|task 1 (C), 2 of 2' '$TMP/tty.lines' | head -n 1 | grep -q 'task 0 C'"
check "terminal: the progress line is erased at the end" sh -c "grep -v '^\$' '$TMP/tty.lines' | tail -n 1 | grep -q '^raised kernel_gemm in'"
check "terminal: the same program" sh -c "'$UPLIFT' raise -q '$K' 2>/dev/null | cmp -s - '$TMP/tty.mlir'"
# explore --targets and rewrites show progress on a terminal too
mkdir -p "$TMP/targets" && cp "$ROOT/benchmarks/kernels/gemm.c" "$ROOT/benchmarks/kernels/atax.c" "$TMP/targets/"
on_tty "$TMP/ttyx" "$UPLIFT" explore --dialect hlo,linalg --targets "$TMP/targets" --timeout 100
tr '\r' '\n' <"$TMP/ttyx" | sed 's/\x1b\[K//g' >"$TMP/ttyx.lines"
check "explore --targets: progress (time, budget, file i of n, dialect)" grep -Eq "^uplift explore: [0-9]+\.[0-9] s of 100 s budget, gemm.c \(2 of 2\) in linalg" "$TMP/ttyx.lines"
check "explore --targets: the matrix" grep -q "^gemm.c" "$TMP/ttyx.lines"
on_tty "$TMP/ttyi" "$UPLIFT" explore --dialect hlo --inputs "x:f64[n],y:f64[n]" --max-ops 2 --timeout 100
tr '\r' '\n' <"$TMP/ttyi" | sed 's/\x1b\[K//g' >"$TMP/ttyi.lines"
check "explore --inputs: progress (time, budget, enumerating)" grep -Eq "^uplift explore: [0-9]+\.[0-9] s of 100 s budget, enumerating" "$TMP/ttyi.lines"
check "explore --inputs: the tally" grep -q "^size 0: 4 distinct" "$TMP/ttyi.lines"
on_tty "$TMP/ttyr" "$UPLIFT" rewrites --dialect hlo --inputs "x:f64[n]" --max-ops 1 --timeout 100 -o "$TMP/rw.txt"
tr '\r' '\n' <"$TMP/ttyr" | sed 's/\x1b\[K//g' >"$TMP/ttyr.lines"
check "rewrites: progress (time, budget, rule i of n)" grep -Eq "^uplift rewrites: [0-9]+\.[0-9] s of 100 s budget, checking proposed rule 1 of [0-9]+" "$TMP/ttyr.lines"
check "rewrites: the rules" grep -q "^# [0-9]* rules for dialect hlo" "$TMP/rw.txt"
# --- linalg: x times a scalar as a linalg.map over x and the broadcast
# scalar (not a broadcast to 1x.. and a linalg.reduce seeded with the
# scalar), region bodies indented; it still parses (the numbers:
# test_mlir_e2e runs every kernel)
for shapes in static dynamic; do
  expect_status 0 "gemm linalg --shapes $shapes" "$UPLIFT" raise -q "$K" --dialect linalg --shapes $shapes
  cp "$TMP/out" "$TMP/gl.mlir"
  check "linalg $shapes: no reduce over a broadcast of unit dims" sh -c "! grep -q 'linalg.reduce' '$TMP/gl.mlir' && ! grep -q 'tensor<1x' '$TMP/gl.mlir'"
  check "linalg $shapes: an operand times alpha is a linalg.map of it and the broadcast alpha" sh -c "grep -q 'linalg.broadcast ins(%alpha : tensor<f64>) outs(.*) dimensions = \[0, 1\]' '$TMP/gl.mlir' && grep -Eq 'linalg.map ins\(%[AB], %v[0-9]+(_scalar)? : ' '$TMP/gl.mlir'"
  check "linalg $shapes: region bodies indented" sh -c "grep -Eq '^    \(%v[0-9]+_x: f64, %v[0-9]+_y: f64\) \{$' '$TMP/gl.mlir' && grep -Eq '^      %v[0-9]+_r = arith.mulf ' '$TMP/gl.mlir' && grep -Eq '^      linalg.yield ' '$TMP/gl.mlir' && grep -Eq '^    }$' '$TMP/gl.mlir'"
  check "linalg $shapes: mlir-opt-16 parses it" mlir-opt-16 "$TMP/gl.mlir"
done
# --- rewrites: what fp mode is, and the IEEE values behind a refutation
expect_status 0 "rewrites x, a (max-ops 1)" "$UPLIFT" rewrites --dialect hlo --inputs "x:f64[n],a:f64[]" --max-ops 1
cp "$TMP/out" "$TMP/rw1.txt"
check "rewrites: the legend names the fp mode" grep -q "^# fp: the abstract floating-point model of mlir-tv" "$TMP/rw1.txt"
check "rewrites: the legend says what fp refuted means" grep -q "^#   fp: refuted: the model does not imply the rule .*which is no IEEE counterexample" "$TMP/rw1.txt"
check "rewrites: a rule without an input is no rule (a proved ground fold)" sh -c "! grep -q '^subtract(1, 1) -> 0 ' '$TMP/rw1.txt' && grep -Eq '^# [0-9]+ rules .*; [0-9]+ generalized, [0-9]+ derived from later rules, [1-9][0-9]* ground folds\)$' '$TMP/rw1.txt'"
check "rewrites: subtract(x, 0) -> x refuted in fp, IEEE agrees on the inputs" grep -q "^subtract(x, 0) -> x    \[real: proved, fp: refuted; IEEE agrees on all [0-9]* inputs tried\]$" "$TMP/rw1.txt"
check "rewrites: a product with a literal 0 is refuted with IEEE values (NaN at a = inf)" grep -q "^# refuted: dot_general\[batch=(), contract=()\](a, 0) -> 0    \[real: refuted: .*; IEEE differs: a = inf (n=1): element 0, lhs nan, rhs 0\]$" "$TMP/rw1.txt"
check "rewrites: fp proved rules carry no note" grep -q "^multiply(x, 1) -> x    \[real: proved, fp: proved\]$" "$TMP/rw1.txt"
check "rewrites: a real refutation with IEEE values (the sign of a zero)" grep -q "^# refuted: add(x, 0) -> x    \[real: refuted: .*; IEEE differs: x = \[-0\] (n=1): element 0, lhs 0, rhs -0\]$" "$TMP/rw1.txt"
expect_status 0 "rewrites --emit json" "$UPLIFT" rewrites --dialect hlo --inputs "x:f64[n],a:f64[]" --max-ops 1 --emit json
check "rewrites --json: fp_reason and ieee of an fp refutation" python3 -c "
import json, sys
d = json.load(open('$TMP/out'))
r = [r for r in d['rules'] if r['lhs'] == 'subtract(x, 0)'][0]
assert r['fp'] == 'refuted' and r['fp_reason'] and r['ieee'].startswith('IEEE agrees'), r
p = [r for r in d['rules'] if r['fp'] == 'proved']
assert p and all('ieee' not in r and 'fp_reason' not in r for r in p)
f = [r for r in d['refuted'] if r['lhs'] == 'add(x, 0)'][0]
c = d['counts']
assert (c['proved'], c['refuted'], c['unknown']) == (len(d['rules']), len(d['refuted']), len(d['unknown'])), c
assert all(r['ieee'].startswith('IEEE differs') for r in d['refuted'])
assert all(r['real'] != 'proved' for r in d['unknown'])
assert f['ieee'] == 'IEEE differs: x = [-0] (n=1): element 0, lhs 0, rhs -0', f
"
expect_status 0 "rewrites --no-fp" "$UPLIFT" rewrites --dialect hlo --inputs "x:f64[n]" --max-ops 1 --no-fp
check "rewrites --no-fp: no fp legend" sh -c "! grep -q '^# fp:' '$TMP/out' && grep -q '^# real:' '$TMP/out'"
# --- an unknown verdict says why, on the result line and in the JSON; a
# search whose candidates use up the examples answers its unknown one
cat >"$TMP/f2u8.c" <<'EOF'
#include <stdint.h>
void scale_to_u8(int n, const float *x, uint8_t *y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * 2.0f;
}
EOF
expect_status 3 "float data stored into u8: unknown (exit 3)" "$UPLIFT" raise "$TMP/f2u8.c"
check "the unknown result line gives the verifier's reason" grep -q "^task 0 y: .*; unknown (.*): at n=1: a conversion between floating and integer values" "$TMP/err"
expect_status 3 "float data stored into u8, --json" "$UPLIFT" raise --json "$TMP/f2u8.c"
check "--json: verify.reason of an unknown verdict" python3 -c "
import json
v = json.load(open('$TMP/out'))['tasks'][0]['verify']
assert v['verdict'] == 'unknown' and 'conversion between floating and integer' in v['reason'], v
"
expect_status 3 "float data stored into u8 in linalg: the unknown candidate, not an error" "$UPLIFT" raise --dialect linalg "$TMP/f2u8.c"
check "linalg: no 'too many examples'" sh -c "grep -q '^task 0 y: .*; unknown (' '$TMP/err' && ! grep -q 'too many' '$TMP/err'"

report
