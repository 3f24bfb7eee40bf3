#!/bin/sh
# Run every test program and script given as arguments; each prints a line
# "N passed, N failed".  Print each test's output, then one overall line
# "N passed, N failed" last; exit non-zero if anything failed or a test
# crashed without its report.
total_pass=0; total_fail=0; status=0
for t in "$@"; do
  echo "== $t"
  case "$t" in
    *.sh) out=$(sh "$t" 2>&1) ;;
    *) out=$("$t" 2>&1) ;;
  esac
  rc=$?
  printf '%s\n' "$out"
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    echo "-- $t: exited $rc without a report line"
    total_fail=$((total_fail + 1)); status=1; continue
  fi
  p=$(echo "$line" | cut -d' ' -f1); f=$(echo "$line" | cut -d' ' -f3)
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "-- $t: exited $rc"; total_fail=$((total_fail + 1))
  fi
  [ "$rc" -ne 0 ] && status=1
done
echo "$total_pass passed, $total_fail failed"
exit $status
