#!/bin/sh
# e2e_frontend.sh - `uplift dump` end to end: every tests/bad/*.c must fail
# with exit status 2, a positioned error (the first line of each file says
# `// expect: LINE:COL substring`, an optional second line `// args: ...`
# gives extra options), a caret line and an empty stdout; every benchmark
# kernel must dump; plus empty, binary, missing and oddly named files,
# options and usage errors.
. tests/lib.sh
case "$UPLIFT" in /*) ;; *) UPLIFT="$(pwd)/$UPLIFT" ;; esac

# bad_input DESC FILE LINE:COL SUBSTRING [ARGS...]
bad_input() {
  desc=$1; file=$2; where=$3; sub=$4; shift 4
  "$UPLIFT" dump "$@" "$file" >"$TMP/out" 2>"$TMP/err"; got=$?
  why=""
  [ "$got" -eq 2 ] || why="exit $got, want 2"
  [ -z "$why" ] && ! grep -qF "$file:$where: error:" "$TMP/err" && why="no '$file:$where: error:'"
  [ -z "$why" ] && ! grep -qF -- "$sub" "$TMP/err" && why="no '$sub' in the message"
  [ -z "$why" ] && [ -z "$nocaret" ] && ! grep -Eq '^[[:space:]|]*\^' "$TMP/err" && why="no caret line"
  [ -z "$why" ] && [ -s "$TMP/out" ] && why="stdout is not empty"
  if [ -z "$why" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $desc: $why"; sed 's/^/  /' "$TMP/err" | head -n 6; fi
}

nocaret=""
nbad=0
for f in tests/bad/*.c; do
  line=$(sed -n '1s|^// expect: ||p' "$f")
  where=${line%% *}; sub=${line#* }
  args=$(sed -n '2s|^// args: ||p' "$f")
  if [ -z "$line" ]; then FAIL=$((FAIL + 1)); echo "FAIL: $f has no '// expect:' line"; continue; fi
  # shellcheck disable=SC2086
  bad_input "$f" "$f" "$where" "$sub" $args
  nbad=$((nbad + 1))
done
check "at least 25 bad inputs" [ "$nbad" -ge 25 ]

# no-position failures: exit 2, "FILE: error:", empty stdout
no_pos() {
  desc=$1; file=$2; sub=$3
  "$UPLIFT" dump "$file" >"$TMP/out" 2>"$TMP/err"; got=$?
  if [ "$got" -eq 2 ] && grep -qF "$file: error:" "$TMP/err" && grep -qF -- "$sub" "$TMP/err" \
     && [ ! -s "$TMP/out" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $desc (exit $got)"; sed 's/^/  /' "$TMP/err" | head -n 4; fi
}
: >"$TMP/empty.c"
no_pos "empty file" "$TMP/empty.c" "empty file"
printf '  \n\n\t\n' >"$TMP/blank.c"
no_pos "blank file" "$TMP/blank.c" "empty file"
printf '/* only a comment */\n' >"$TMP/comment.c"
no_pos "file without functions" "$TMP/comment.c" "defines no function"
no_pos "missing file" "$TMP/does-not-exist.c" "cannot read file"
no_pos "directory" "$TMP" "directory"
printf 'void kernel_x(int n) {\n  \000\001 }\n' >"$TMP/nul.c"
# binary text is not quoted back: no caret line for these two
nocaret=1
bad_input "NUL byte" "$TMP/nul.c" "2:3" "not a text file"
printf 'void kernel_x(int n) {\n} \377\376\n' >"$TMP/latin.c"
bad_input "invalid UTF-8" "$TMP/latin.c" "2:3" "invalid UTF-8"
nocaret=""
head -c 3000 /bin/sh >"$TMP/elf.c"
expect_status 2 "an executable as input" "$UPLIFT" dump "$TMP/elf.c"

# good inputs
cat >"$TMP/ok.c" <<'SRC'
void kernel_ok(int n, double alpha, double A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      A[i][j] *= alpha;
}
SRC
expect_status 0 "a plain C99 kernel" "$UPLIFT" dump "$TMP/ok.c"
"$UPLIFT" dump "$TMP/ok.c" >"$TMP/out" 2>&1
check "dump numbers statements" grep -q 'S0: A\[i\]\[j\] \*= alpha;' "$TMP/out"
check "dump shows inclusive bounds" grep -q 'for (j = 0; j <= i; j++)' "$TMP/out"
check "dump shows the signature" grep -q 'void kernel_ok(int n, double alpha, double A\[n\]\[n\])' "$TMP/out"
expect_status 0 "--help" "$UPLIFT" dump --help
expect_status 2 "no file" "$UPLIFT" dump
expect_status 2 "two files" "$UPLIFT" dump "$TMP/ok.c" "$TMP/ok.c"
expect_status 2 "unknown option" "$UPLIFT" dump --frobnicate "$TMP/ok.c"
expect_status 2 "bad -D" "$UPLIFT" dump -D '=x' "$TMP/ok.c"
expect_status 0 "--function picks one of several kernels" "$UPLIFT" dump --function kernel_two tests/bad/two_kernels.c
expect_status 0 "--function after the file" "$UPLIFT" dump tests/bad/two_kernels.c --function=kernel_one
expect_status 0 "-D reaches the preprocessor" "$UPLIFT" dump -D UPLIFT_OK tests/bad/error_directive.c
mkdir -p "$TMP/inc"
printf '#define LOOP_N n\n#define SCALE(x) (2.0 * (x))\n' >"$TMP/inc/mydefs.h"
cat >"$TMP/inc.c" <<'SRC'
#include "mydefs.h"
void kernel_inc(int n, double A[n]) {
  for (int i = 0; i < LOOP_N; i++)
    A[i] = SCALE(A[i]);
}
SRC
expect_status 2 "missing include dir" "$UPLIFT" dump "$TMP/inc.c"
expect_status 0 "-I DIR" "$UPLIFT" dump -I "$TMP/inc" "$TMP/inc.c"
expect_status 0 "-IDIR" "$UPLIFT" dump "-I$TMP/inc" "$TMP/inc.c"
# odd file names: no shell interpretation, a leading dash
odd='a b;$(touch pwned)`touch pwned`"q.c'
cp "$TMP/ok.c" "$TMP/$odd"
(cd "$TMP" && "$UPLIFT" dump "$odd" >/dev/null 2>&1); rc=$?
check "file name with shell characters" [ "$rc" -eq 0 ]
check "no shell injection" [ ! -e "$TMP/pwned" ]
cp "$TMP/ok.c" "$TMP/-dash.c"
(cd "$TMP" && "$UPLIFT" dump -- -dash.c >/dev/null 2>&1); rc=$?
check "file name starting with a dash" [ "$rc" -eq 0 ]
(cd / && "$UPLIFT" dump "$TMP/ok.c" >/dev/null 2>&1); rc=$?
check "works from another directory" [ "$rc" -eq 0 ]

# every kernel file parses (a `// uplift: OPTIONS` line gives its options)
nk=0
for f in benchmarks/kernels/*.c benchmarks/kernels/c99/*.c tests/kernels/*.c; do
  [ -e "$f" ] || continue
  opts=$(sed -n 's|^// uplift: ||p' "$f" | head -n 1)
  # shellcheck disable=SC2086
  expect_status 0 "dump $f" "$UPLIFT" dump $opts "$f"
  nk=$((nk + 1))
done
echo "dumped $nk kernel files"
report
