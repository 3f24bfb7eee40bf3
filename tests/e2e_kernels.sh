#!/bin/sh
# e2e_kernels.sh - every kernel file compiles against uplift's own
# polybench.h and, where it has a main, runs cleanly at the MINI dataset.
#
# Files are found by glob (benchmarks/kernels/*.c, benchmarks/kernels/c99/*.c,
# benchmarks/kernels/partial/*.c, tests/kernels/*.c); nothing here names a kernel.  A file is Polybench style
# when it includes <polybench.h>.  Checks per file:
#   - exactly one kernel function: one kernel_* definition, or a
#     "// uplift: --function NAME" comment naming a function it defines;
#   - Polybench style: the default dataset compiles (-fsyntax-only); at MINI
#     it compiles with gcc -Wall -Werror both with and without
#     -DPOLYBENCH_USE_C99_PROTO -DPOLYBENCH_USE_SCALAR_LB, runs, exits 0,
#     and the two builds dump identical arrays (POLYBENCH_DUMP_ARRAYS); a
#     build without POLYBENCH_DUMP_ARRAYS prints nothing and a
#     POLYBENCH_TIME build prints the elapsed seconds;
#   - plain C99: compiles with gcc -c -std=c99 -Wall -Werror (and runs if it
#     has a main).
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

INC=frontend/include
CC=${CC_KERNELS:-gcc}
C99FLAGS="-DPOLYBENCH_USE_C99_PROTO -DPOLYBENCH_USE_SCALAR_LB"

# one_kernel FILE: exactly one kernel function, found the way the front end
# finds it.
one_kernel() {
  named=$(sed -n 's|^// uplift: --function \([A-Za-z_][A-Za-z0-9_]*\).*|\1|p' "$1")
  if [ -n "$named" ]; then
    [ "$(printf '%s\n' "$named" | wc -l)" -eq 1 ] &&
      grep -Eq "^(static )?void $named\(" "$1"
  else
    [ "$(grep -Ec '^(static )?void kernel_[A-Za-z0-9_]*\(' "$1")" -eq 1 ]
  fi
}

# build_run NAME FLAGS...: compile $f at MINI into $TMP/NAME, run it with
# stdout in $TMP/NAME.out and stderr in $TMP/NAME.err; fails on any warning,
# a non-zero exit or a crash.
build_run() {
  name=$1; shift
  $CC -O1 -Wall -Werror -I "$INC" -DMINI_DATASET "$@" "$f" -lm \
      -o "$TMP/$name" 2>"$TMP/$name.cc" || { cat "$TMP/$name.cc" >&2; return 1; }
  "$TMP/$name" >"$TMP/$name.out" 2>"$TMP/$name.err"
}

nfiles=0
for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c benchmarks/kernels/partial/*.c \
    tests/kernels/*.c; do
  [ -f "$f" ] || continue
  nfiles=$((nfiles + 1))
  check "$f: exactly one kernel function" one_kernel "$f"
  if grep -q '#include <polybench.h>' "$f"; then
    check "$f: #pragma scop ... #pragma endscop" \
      sh -c "grep -q '^#pragma scop' '$f' && grep -q '^#pragma endscop' '$f'"
    check "$f: default dataset compiles" \
      $CC -fsyntax-only -Wall -Werror -I "$INC" "$f"
    check "$f: default dataset compiles with C99 prototypes" \
      $CC -fsyntax-only -Wall -Werror -I "$INC" $C99FLAGS "$f"
    if grep -Eq '^int main' "$f"; then
      check "$f: MINI builds and runs" build_run plain -DPOLYBENCH_DUMP_ARRAYS
      check "$f: MINI builds and runs with C99 prototypes" \
        build_run c99 $C99FLAGS -DPOLYBENCH_DUMP_ARRAYS
      check "$f: dump has begin/end markers" \
        sh -c "grep -q '^==BEGIN DUMP_ARRAYS==' '$TMP/plain.err' &&
               grep -q '^==END   DUMP_ARRAYS==' '$TMP/plain.err'"
      check "$f: C99-prototype build computes the same arrays" \
        cmp -s "$TMP/plain.err" "$TMP/c99.err"
      check "$f: POLYBENCH_TIME build runs" build_run timed -DPOLYBENCH_TIME
      check "$f: no dump without POLYBENCH_DUMP_ARRAYS" \
        test ! -s "$TMP/timed.err"
      check "$f: POLYBENCH_TIME prints the seconds" \
        grep -Eqx '[0-9]+\.[0-9]+' "$TMP/timed.out"
    else
      check "$f: compiles (no main)" \
        $CC -c -Wall -Werror -I "$INC" -DMINI_DATASET "$f" -o "$TMP/k.o"
    fi
  else
    check "$f: compiles as plain C99" \
      $CC -c -std=c99 -Wall -Werror "$f" -o "$TMP/k.o"
    if grep -Eq '^int main' "$f"; then
      check "$f: builds and runs" \
        sh -c "$CC -std=c99 -Wall -Werror '$f' -lm -o '$TMP/k' && '$TMP/k'"
    fi
  fi
done
check "kernel files found" test "$nfiles" -gt 0
report
