#!/bin/sh
# e2e_cblas.sh - the C+BLAS output end to end (uplift raise --emit c).
# Every kernel file found by glob (the benchmark kernels and the int-data
# kernels of tests/kernels/int, whose products are loops) must give the result the table
# kernel_want (tests/lib.sh) lists for hlo: R raises, O is not raised today
# (exit 1 with a reason; raising is fine too); a file not in the table
# fails.  The search is bounded by --max-ops and the memory budget; the time
# budget only stops a hang.  For every raised kernel the emitted C, compiled
# with OpenBLAS in place of the original file (uplift run --native
# --native-source), must agree with the interpreter at two size assignments
# no example used, on seeded random inputs, and so must the natively
# compiled original (so the two agree); also with each size 0 in turn.
# The programs are the verified ones (the first candidate that --verify none
# writes may be wrong where no example looked: a column maximum started at
# -inf, not at the kept 0, at n = 0).
# Also: the emitted code compiles cleanly with -Wall -Wextra, and a negative
# size is reported and aborts.
. tests/lib.sh

BLAS=$(pkg-config --cflags --libs openblas)
export OPENBLAS_NUM_THREADS=1
opts() { sed -n '1s|^// uplift: ||p' "$1"; }
budget="--timeout 900"
raised=0
fused=0
first=""
for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c tests/kernels/int/*.c \
  tests/kernels/slice/*.c; do
  name=$(basename "$f" .c)
  out="$TMP/$name.c"
  w=$(kernel_want "$f" hlo)
  if [ -z "$w" ]; then FAIL=$((FAIL + 1)); echo "FAIL: $f is not in the table"; continue; fi
  "$UPLIFT" raise "$f" $(opts "$f") --emit c $budget -o "$out" \
    >"$TMP/out" 2>"$TMP/err"
  rc=$?
  case $rc.$w in
    0.*) ;;
    1.O) if grep -q "not raised: ." "$TMP/err"; then PASS=$((PASS + 1)); else
           FAIL=$((FAIL + 1)); echo "FAIL: $name: exit 1 without a reason"; fi
         continue ;;
    *) FAIL=$((FAIL + 1)); echo "FAIL: $name: raise --emit c exited $rc, want $w"
       sed 's/^/  /' "$TMP/err" | head -5; continue ;;
  esac
  raised=$((raised + 1))
  [ -n "$first" ] || first=$f
  # fusion: fewer temporary buffers (upl_vN = upl_alloc) and fewer steps
  # (loop nests, BLAS call sites) than the program has nodes (the SSA values
  # of its MLIR form); an unfused writer has one of each per node
  "$UPLIFT" raise "$f" $(opts "$f") $budget -o "$TMP/$name.mlir" \
    >/dev/null 2>&1
  nodes=$(grep -c '^  %[A-Za-z0-9_]* = ' "$TMP/$name.mlir")
  bufs=$(grep -c 'upl_v[0-9]* = upl_alloc(' "$out")
  steps=$(( $(grep -c 'long upl_o = 0' "$out") + $(grep -c 'cblas_[sd]\(gemm\|gemv\|dot\)(' "$out") ))
  if [ "$bufs" -le "$nodes" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $name: $bufs buffers for $nodes nodes"; fi
  [ "$bufs" -lt "$nodes" ] && [ "$steps" -lt "$nodes" ] && fused=$((fused + 1))
  check "$name: emitted C compiles without warnings" \
    cc -std=c99 -Wall -Wextra -Werror -O2 -c "$out" -o "$TMP/$name.o" $BLAS
  # size 0: every size in turn is 0 (empty arrays, a contraction over
  # nothing), the others the size-set 0 primes; sizes at which the source
  # itself writes outside an array (corr[m-1][m-1] at m = 0) are skipped
  sizes=$("$UPLIFT" run "$f" $(opts "$f") | sed -n '1s/^kernel [^:]*: //p' | sed 's/ seed=.*//')
  for z in $sizes; do
    zs=""
    for nv in $sizes; do
      [ "$z" = "$nv" ] && nv="${nv%%=*}=0"
      zs="$zs${zs:+,}$nv"
    done
    "$UPLIFT" run "$f" $(opts "$f") --sizes "$zs" 2>&1 | grep -q "out-of-range subscript" && continue
    expect_status 0 "$name: C+BLAS agrees with the interpreter at $zs" \
      "$UPLIFT" run "$f" $(opts "$f") --sizes "$zs" --native \
        --native-source "$out" --native-cflags "$BLAS"
  done
  # size-sets 9 and 14: primes far above the ones the examples use
  for ss in 9 14; do
    expect_status 0 "$name: the original agrees with the interpreter at size-set $ss" \
      "$UPLIFT" run "$f" $(opts "$f") --size-set $ss --native
    expect_status 0 "$name: C+BLAS agrees with the interpreter at size-set $ss" \
      "$UPLIFT" run "$f" $(opts "$f") --size-set $ss --native \
        --native-source "$out" --native-cflags "$BLAS"
  done
done
# most kernels have an elementwise tree, a BLAS accumulation or an in-place
# result: at least two thirds of them must show it
if [ $((3 * fused)) -ge $((2 * raised)) ]; then PASS=$((PASS + 1)); else
  FAIL=$((FAIL + 1)); echo "FAIL: only $fused of $raised kernels have fewer buffers and steps than nodes"; fi

# a kernel written for this test: one elementwise tree (a broadcast bias,
# an outer-product scale, a scalar multiply) whose result array is not read:
# one loop nest straight into Y, no temporary, no copy
cat >"$TMP/chain.c" <<'EOF'
void kernel_chain(int n, int m, double alpha, double X[n][m], double b[m],
                  double c[n], double Y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      Y[i][j] = (X[i][j] + b[j]) * c[i] - X[i][j] * alpha;
}
EOF
# and one whose in-place writes would clobber values read later: B reads
# A transposed, A and x are overwritten (the program may compute A first)
cat >"$TMP/hazard.c" <<'EOF'
void kernel_hazard(int n, double A[n][n], double B[n][n], double x[n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = A[j][i] + x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = A[i][j] * 2.0 - x[i];
  for (int i = 0; i < n; i++)
    x[i] = x[i] + 1.0;
}
EOF
for name in chain hazard; do
  f=$TMP/$name.c
  expect_status 0 "$name: raise --emit c" \
    "$UPLIFT" raise "$f" --emit c --verify none $budget -o "$TMP/$name.out.c"
  "$UPLIFT" raise "$f" --verify none $budget -o "$TMP/$name.mlir" >/dev/null 2>&1
  check "$name: emitted C compiles without warnings" \
    cc -std=c99 -Wall -Wextra -Werror -O2 -c "$TMP/$name.out.c" -o "$TMP/$name.o" $BLAS
  for ss in 9 14; do
    expect_status 0 "$name: C+BLAS agrees with the interpreter at size-set $ss" \
      "$UPLIFT" run "$f" --size-set $ss --native \
        --native-source "$TMP/$name.out.c" --native-cflags "$BLAS"
  done
done
nodes=$(grep -c '^  %[A-Za-z0-9_]* = ' "$TMP/chain.mlir")
check "chain: the program has an elementwise chain ($nodes nodes)" test "$nodes" -ge 4
check "chain: no temporary buffer" sh -c "! grep -q 'upl_v[0-9]* = upl_alloc(' '$TMP/chain.out.c'"
check "chain: one loop nest" test "$(grep -c 'long upl_o = 0' "$TMP/chain.out.c")" -eq 1
check "chain: Y written in place" grep -q '= (double \*)Y; /\* written in place' "$TMP/chain.out.c"
check "chain: no result copy" sh -c "! grep -q 'upl_q\]' '$TMP/chain.out.c'"

# a masked contraction: a sum over k < i, proved as the sum of
# select(k < i, L * X, 0), raised with verification (under --verify none
# the first candidate, not necessarily exact, would be written): a gemm on
# the masked matrix behind a finiteness check of X; with NaN/inf among the
# inputs the exact loops run and the C still agrees, and without the check
# it would not
cat >"$TMP/tri.c" <<'EOF'
void kernel_tri(int n, int m, double L[n][n], double X[n][m], double Y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double s = 0.0;
      for (int k = 0; k < i; k++)
        s += L[i][k] * X[k][j];
      Y[i][j] = s;
    }
}
EOF
expect_status 0 "tri: raise --emit c (verified)" \
  "$UPLIFT" raise "$TMP/tri.c" --emit c $budget -o "$TMP/tri.out.c"
check "tri: the masked contraction is a guarded gemm" \
  sh -c "grep -q 'masked contraction: BLAS' '$TMP/tri.out.c' && grep -q 'cblas_dgemm(' '$TMP/tri.out.c' && grep -q isfinite '$TMP/tri.out.c'"
check "tri: emitted C compiles without warnings" \
  cc -std=c99 -Wall -Wextra -Werror -O2 -c "$TMP/tri.out.c" -o "$TMP/tri.o" $BLAS
for v in "--size-set 9" "--size-set 14" "--values special --size-set 9" "--values special --size-set 14"; do
  expect_status 0 "tri: C+BLAS agrees with the interpreter ($v)" \
    "$UPLIFT" run "$TMP/tri.c" $v --native --native-source "$TMP/tri.out.c" --native-cflags "$BLAS"
done
sed 's/if (!isfinite(.*) { upl_fin[0-9]* = 0; break; }/(void)0;/' "$TMP/tri.out.c" >"$TMP/tri.noguard.c"
check "tri: the check was removed" sh -c "! cmp -s '$TMP/tri.out.c' '$TMP/tri.noguard.c'"
expect_status 3 "tri: without the finiteness check the C differs on NaN/inf inputs" \
  "$UPLIFT" run "$TMP/tri.c" --values special --size-set 9 --native \
    --native-source "$TMP/tri.noguard.c" --native-cflags "$BLAS"

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
# The overlap assumption: a written pointer and another operand, neither
# restrict, may overlap in C; the C+BLAS code checks at its start that they
# do not (adjacent storage passes, one element of overlap aborts with a
# message), and restrict removes the check.
cat >"$TMP/ov.c" <<'EOF'
void shift_add(int n, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0;
}
EOF
expect_status 0 "overlap: raised as C+BLAS" "$UPLIFT" raise -q --emit c "$TMP/ov.c" -o "$TMP/ov_c.c"
check "overlap: the report states the assumption" sh -c "'$UPLIFT' raise '$TMP/ov.c' 2>&1 >/dev/null | grep -q '^assumes y overlaps none of x in memory (none is restrict)$'"
cat >"$TMP/ov_main.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
void shift_add(int n, const double *x, double *y);
int main(int argc, char **argv) {
  static double buf[16];
  int off = atoi(argv[1]); /* y starts off elements after x; n = 4 */
  for (int i = 0; i < 16; i++) buf[i] = i;
  shift_add(4, buf, buf + off);
  printf("%g %g\n", buf[off], buf[off + 3]);
  return 0;
}
EOF
if cc -std=c11 -o "$TMP/ov" "$TMP/ov_main.c" "$TMP/ov_c.c" $BLAS -lm 2>"$TMP/err"; then
  PASS=$((PASS + 1))
  "$TMP/ov" 4 >"$TMP/out" 2>"$TMP/err"; st=$?
  check "overlap: adjacent storage runs and computes (exit $st)" grep -qx "1 4" "$TMP/out"
  "$TMP/ov" 3 >"$TMP/out" 2>"$TMP/err"; st=$?
  if [ "$st" -ne 0 ] && grep -q "shift_add: x and y overlap in memory; this code assumes they do not" "$TMP/err"; then
    PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL: overlapping x and y not refused (exit $st)"; cat "$TMP/err"; fi
else
  FAIL=$((FAIL + 1)); echo "FAIL: overlap driver does not compile"; cat "$TMP/err"
fi
sed 's/double \*y/double *restrict y/' "$TMP/ov.c" >"$TMP/ovr.c"
"$UPLIFT" raise -q --emit c "$TMP/ovr.c" >"$TMP/ovr_c.c" 2>"$TMP/err"
check "overlap: restrict y: no check, no assumption" sh -c "! grep -q overlap '$TMP/ovr_c.c' && ! '$UPLIFT' raise '$TMP/ovr.c' 2>&1 | grep -q overlaps"

report
