#!/bin/sh
# e2e_run.sh - `uplift run`: every kernel file (benchmarks/kernels, its c99/
# and partial/, tests/kernels; found by glob) runs in the interpreter and
# natively with agreeing results at two different size assignments; option
# errors exit 2; deliberately broken kernels in tests/native/ give clean
# errors (exit 2 or 3), never a crash.
. tests/lib.sh

# the options a file names in a `// uplift: OPTIONS` line (e.g. --function)
file_opts() { sed -n 's|^// uplift: ||p' "$1" | head -n 1; }

nkernels=0
for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c benchmarks/kernels/partial/*.c \
    tests/kernels/*.c; do
  [ -e "$f" ] || continue
  nkernels=$((nkernels + 1))
  opts=$(file_opts "$f")
  # shellcheck disable=SC2086
  expect_status 0 "run --native $f (default sizes)" "$UPLIFT" run --native $opts "$f"
  grep -q '^native: agrees on [1-9][0-9]* elements' "$TMP/out" ||
    { FAIL=$((FAIL + 1)); echo "FAIL: $f: no agreement line"; }
  # shellcheck disable=SC2086
  expect_status 0 "run --native $f (size set 1)" "$UPLIFT" run --native --size-set 1 --seed 7 $opts "$f"
done
echo "kernels checked natively: $nkernels"

# output format, determinism, --sizes (on a kernel of our own)
K=tests/native/twofns.c
expect_status 0 "run twofns" "$UPLIFT" run --function scale "$K"
cp "$TMP/out" "$TMP/first"
check "header line names kernel, sizes and seed" \
  grep -Eq '^kernel scale: n=3 m=5 seed=1$' "$TMP/first"
check "checksum line format" \
  grep -Eq '^A f32\[3\]\[5\] sum=-?[0-9.e+-]+ hash=[0-9a-f]{16}$' "$TMP/first"
"$UPLIFT" run --function scale "$K" >"$TMP/again" 2>&1
check "same seed, same output" cmp -s "$TMP/first" "$TMP/again"
"$UPLIFT" run --function scale --seed 2 "$K" >"$TMP/seed2" 2>&1
check "another seed, another hash" sh -c "! cmp -s '$TMP/first' '$TMP/seed2'"
"$UPLIFT" run --function scale --sizes m=5,n=3 "$K" >"$TMP/sized" 2>&1
check "--sizes equal to the defaults gives the same output" cmp -s "$TMP/first" "$TMP/sized"
expect_status 0 "--sizes other values" "$UPLIFT" run --function scale --sizes n=2,m=9 "$K"
check "--sizes shape" grep -q '^A f32\[2\]\[9\] ' "$TMP/out"
expect_status 0 "--size-set 1 native" "$UPLIFT" run --native --size-set 1 --function scale "$K"
check "--size-set 1 shape differs" sh -c "! grep -q 'A f32\[3\]\[5\]' '$TMP/out'"

expect_status 2 "unknown size name" "$UPLIFT" run --function scale --sizes n=3,m=5,q=2 "$K"
check "unknown size is named" grep -q "'q' is not a size parameter" "$TMP/err"
expect_status 2 "missing size" "$UPLIFT" run --function scale --sizes n=3 "$K"
check "missing size is named" grep -q "does not give size 'm'" "$TMP/err"
expect_status 0 "zero size: an empty array" "$UPLIFT" run --native --function scale --sizes n=0,m=5 "$K"
check "zero size: shape [0][5]" grep -q '^A f32\[0\]\[5\] sum=0 ' "$TMP/out"
expect_status 0 "several --sizes and --values sets" "$UPLIFT" run --native --function scale \
  --sizes n=1,m=2 --sizes n=4,m=3 --values int,real,special,huge "$K"
check "one header per run" test "$(grep -c '^kernel scale: ' "$TMP/out")" -eq 8
check "value set named in the header" grep -q '^kernel scale: n=4 m=3 seed=1 values=special$' "$TMP/out"
check "one agreement line per run" test "$(grep -c '^native: agrees' "$TMP/out")" -eq 8
"$UPLIFT" run --function scale --values special --seed 3 "$K" >"$TMP/sp1" 2>&1
"$UPLIFT" run --function scale --values special --seed 3 "$K" >"$TMP/sp2" 2>&1
check "special values are seeded" cmp -s "$TMP/sp1" "$TMP/sp2"
check "special values include NaN" grep -Eq 'sum=-?nan' "$TMP/sp1"
expect_status 2 "unknown value set" "$UPLIFT" run --function scale --values ints "$K"
expect_status 2 "--against-native needs --native-source" \
  "$UPLIFT" run --native --against-native --function scale "$K"
# --against-native: the file against itself agrees; a different kernel
# (same signature) is caught at the element that differs
expect_status 0 "--against-native: the same code agrees" "$UPLIFT" run --function scale \
  --native --native-source "$K" --against-native --values int,special "$K"
check "--against-native agreement line" \
  grep -q '^native source: agrees with the native original on 15 elements' "$TMP/out"
sed 's/\*= alpha;/*= alpha + 1.0f;/' "$K" >"$TMP/other.c"
if ! cmp -s "$K" "$TMP/other.c"; then
  expect_status 3 "--against-native: another kernel differs" "$UPLIFT" run --function scale \
    --native --native-source "$TMP/other.c" --against-native "$K"
  check "--against-native names both sides" grep -q 'native original .*, native source ' "$TMP/err"
else
  FAIL=$((FAIL + 1)); echo "FAIL: could not make a changed copy of $K"
fi
expect_status 2 "negative size" "$UPLIFT" run --function scale --sizes n=-3,m=5 "$K"
expect_status 2 "malformed --sizes" "$UPLIFT" run --function scale --sizes n3 "$K"
expect_status 2 "bad seed" "$UPLIFT" run --function scale --seed x "$K"
expect_status 2 "unknown option" "$UPLIFT" run --bogus "$K"
expect_status 2 "no file" "$UPLIFT" run
expect_status 2 "missing file" "$UPLIFT" run "$TMP/does-not-exist.c"
expect_status 0 "--help" "$UPLIFT" run --help
check "--help documents --native" grep -q -- '--native' "$TMP/out"

# deliberately broken kernels
expect_status 0 "uninitialized read: warning only without --native" \
  "$UPLIFT" run tests/native/uninit.c
check "uninitialized read: poison count in the output" grep -q ' poison=3$' "$TMP/out"
check "uninitialized read: warning" grep -q 'uninitialized' "$TMP/err"
expect_status 3 "uninitialized read: --native refuses to compare" \
  "$UPLIFT" run --native tests/native/uninit.c
check "uninitialized read: message" grep -q 'uninitialized' "$TMP/err"
expect_status 0 "uninitialized read: --against-native leaves those elements out" \
  "$UPLIFT" run --native --native-source tests/native/uninit.c --against-native tests/native/uninit.c
check "uninitialized read: --against-native note" grep -q 'not compared' "$TMP/err"

expect_status 2 "out-of-bounds write is a runtime error" "$UPLIFT" run --native tests/native/oob.c
check "out-of-bounds: positioned message with index and shape" \
  grep -Eq '^tests/native/oob.c:6:[0-9]+: error: out-of-range subscript .*A\[3\].*\[3\]' "$TMP/err"
check "out-of-bounds: caret line" grep -q '^ *\^' "$TMP/err"

expect_status 3 "native differs from the interpreter" "$UPLIFT" run --native tests/native/differs.c
check "difference names the first element and both values" \
  grep -q 'first: A\[2\]\[1\]: interpreter .*, native ' "$TMP/err"

expect_status 3 "native crash is reported" "$UPLIFT" run --native tests/native/crash.c
check "crash message names the signal" grep -qi 'crashed: .*signal' "$TMP/err"
expect_status 0 "crash.c is fine in the interpreter" "$UPLIFT" run tests/native/crash.c

expect_status 3 "native time-out is reported" "$UPLIFT" run --native --timeout 1 tests/native/spin.c
check "time-out message" grep -q 'time limit' "$TMP/err"

# main and the helpers it calls may use functions of a library that is not
# compiled with the file (upstream Polybench's polybench.c): not needed
expect_status 0 "main calling undefined functions: the kernel still runs natively" \
  "$UPLIFT" run --native tests/native/extern_main.c
check "main calling undefined functions: agreement line" \
  grep -q '^native: agrees on 3 elements' "$TMP/out"

expect_status 3 "native compile failure is reported" "$UPLIFT" run --native tests/native/nocompile.c
check "compile failure quotes the compiler" grep -q 'does not compile natively' "$TMP/err"

report
