#!/bin/sh
# e2e_dialects.sh - `uplift dialects`: the shipped dialects list and load;
# every malformed dialect file under tests/dialects/bad/ exits 2 with a
# positioned error (FILE:LINE:COL: error: ...), the source line and a caret.
# Each bad file's first line is "# expect: LINE:COL SUBSTRING".
. tests/lib.sh

expect_status 0 "dialects lists" "$UPLIFT" dialects
"$UPLIFT" dialects >"$TMP/list" 2>&1
for d in hlo linalg tosa; do
  check "dialects lists $d" grep -q "^$d .* ops" "$TMP/list"
done
for d in hlo linalg tosa; do
  expect_status 0 "dialects $d" "$UPLIFT" dialects "$d"
done
"$UPLIFT" dialects linalg >"$TMP/lin" 2>&1
check "linalg matmul signature" grep -q "matmul a:\[m,k\] b:\[k,n\] -> \[m,n\]" "$TMP/lin"
check "linalg matmul kernel" grep -q "kernel dot_general" "$TMP/lin"
expect_status 0 "dialects by path" "$UPLIFT" dialects tests/dialects/extra
expect_status 0 "dialects --help" "$UPLIFT" dialects --help
expect_status 2 "unknown dialect" "$UPLIFT" dialects no-such-dialect
expect_status 2 "two arguments" "$UPLIFT" dialects hlo tosa
expect_status 2 "bad option" "$UPLIFT" dialects --frobnicate
# from another directory: the shipped dialects are still found
UP=$(cd "$(dirname "$UPLIFT")" && pwd)/$(basename "$UPLIFT")
check "dialects from another directory" sh -c "cd / && '$UP' dialects hlo"

n=0
for f in tests/dialects/bad/*; do
  n=$((n + 1))
  want=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
  pos=${want%% *}
  msg=${want#* }
  expect_status 2 "$f exits 2" "$UPLIFT" dialects "$f"
  first=$(head -n 1 "$TMP/err")
  case "$first" in
    "$f:$pos: error: "*"$msg"*) PASS=$((PASS + 1)) ;;
    *) FAIL=$((FAIL + 1)); echo "FAIL: $f: want '$f:$pos: error: ...$msg', got '$first'" ;;
  esac
  if sed -n 3p "$TMP/err" | grep -q '^ *\^$'; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $f: no caret line"; fi
done
if [ "$n" -ge 12 ]; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL: only $n bad dialect files"; fi
report
