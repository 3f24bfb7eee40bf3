#!/bin/sh
# e2e_cblas.sh - the C+BLAS output end to end (uplift raise --emit c).
# For every kernel file found by glob that raises to hlo (files that exit 1,
# not raised, are skipped), the emitted C, compiled with OpenBLAS in place of
# the original file (uplift run --native --native-source), must agree with
# the interpreter at two size assignments no example used, on seeded random
# inputs, and so must the natively compiled original (so the two agree).  Also: the emitted code compiles cleanly
# with -Wall -Wextra, and a negative size is reported and aborts.
. tests/lib.sh

BLAS=$(pkg-config --cflags --libs openblas)
export OPENBLAS_NUM_THREADS=1
opts() { sed -n '1s|^// uplift: ||p' "$1"; }
raised=0
first=""
for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c; do
  name=$(basename "$f" .c)
  out="$TMP/$name.c"
  "$UPLIFT" raise "$f" $(opts "$f") --emit c --verify none --timeout 20 -o "$out" \
    >"$TMP/out" 2>"$TMP/err"
  rc=$?
  case $rc in
    0) ;;
    1) continue ;;
    *) FAIL=$((FAIL + 1)); echo "FAIL: $name: raise --emit c exited $rc"
       sed 's/^/  /' "$TMP/err" | head -5; continue ;;
  esac
  raised=$((raised + 1))
  [ -n "$first" ] || first=$f
  check "$name: emitted C compiles without warnings" \
    cc -std=c99 -Wall -Wextra -Werror -O2 -c "$out" -o "$TMP/$name.o" $BLAS
  # size-sets 9 and 14: primes far above the ones the examples use
  for ss in 9 14; do
    expect_status 0 "$name: the original agrees with the interpreter at size-set $ss" \
      "$UPLIFT" run "$f" $(opts "$f") --size-set $ss --native
    expect_status 0 "$name: C+BLAS agrees with the interpreter at size-set $ss" \
      "$UPLIFT" run "$f" $(opts "$f") --size-set $ss --native \
        --native-source "$out" --native-cflags "$BLAS"
  done
done
# regression floor: every benchmark kernel that e2e_raise raises (14 of 15)
if [ "$raised" -ge 14 ]; then PASS=$((PASS + 1)); else
  FAIL=$((FAIL + 1)); echo "FAIL: only $raised kernels raised and emitted as C"; fi

# a wrong replacement is caught: perturb one result copy of the first kernel
if [ -n "$first" ]; then
  name=$(basename "$first" .c)
  # (every result copy and every loop store, as results may be written in
  # place by their loop)
  sed -e 's/\[upl_q\] = (\(.*\))upl_v\([0-9]*\)\[upl_q\];/[upl_q] = (\1)(upl_v\2[upl_q] + 1);/' \
    -e 's/\[upl_o++\] = \(.*\);$/[upl_o++] = (\1) + 1;/' \
    "$TMP/$name.c" >"$TMP/bad.c"
  check "$name: the perturbation changed the file" sh -c "! cmp -s '$TMP/$name.c' '$TMP/bad.c'"
  expect_status 3 "$name: a perturbed C+BLAS file is reported as a mismatch" \
    "$UPLIFT" run "$first" $(opts "$first") --size-set 9 --native \
      --native-source "$TMP/bad.c" --native-cflags "$BLAS"
  # the runtime size check: call the function with every size -1
  sizes=$(grep -o '^void [a-z_0-9]*(.*) {' "$TMP/$name.c" | head -1)
  fn=$(echo "$sizes" | sed 's/^void \([a-z_0-9]*\)(.*/\1/')
  # the size parameters come first in Polybench signatures: `int n, ...`
  nint=$(echo "$sizes" | sed 's/^[^(]*(//' | tr ',' '\n' | grep -c '^ *int ')
  args=$(i=0; while [ $i -lt "$nint" ]; do printf -- '-1, '; i=$((i + 1)); done)
  npar=$(echo "$sizes" | sed 's/^[^(]*(//' | tr ',' '\n' | grep -vc '^ *int ')
  rest=$(i=0; while [ $i -lt "$npar" ]; do printf '0, '; i=$((i + 1)); done | sed 's/, $//')
  printf '#include "%s"\nint main(void) { %s(%s%s); return 0; }\n' "$TMP/$name.c" "$fn" "$args" "$rest" >"$TMP/neg.c"
  if cc -w -o "$TMP/neg" "$TMP/neg.c" $BLAS -lm 2>"$TMP/err"; then
    "$TMP/neg" >/dev/null 2>"$TMP/err"
    st=$?
    if [ "$st" -ne 0 ] && grep -q "sizes must be >= 0:.*=-1" "$TMP/err"; then PASS=$((PASS + 1)); else
      FAIL=$((FAIL + 1)); echo "FAIL: negative sizes not reported (exit $st)"; cat "$TMP/err"; fi
  else
    FAIL=$((FAIL + 1)); echo "FAIL: driver for the size check does not compile"; cat "$TMP/err"
  fi
fi
report
