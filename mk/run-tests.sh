#!/bin/sh
# Run every test program and script given as arguments; each prints a line
# "N passed, N failed".  Print each test's output and its wall time, then a
# table of the times and one overall line "N passed, N failed" last; exit
# non-zero if anything failed.
#
# A test fails as a whole (counted as one failure, named) when it:
#   - exits without its report line (a crash),
#   - exits non-zero while reporting no failure,
#   - reports 0 passed checks (it tested nothing: a skip is a failure),
#   - runs longer than TEST_TIMEOUT seconds (default 1800; a hang guard, not
#     a timing assertion: the limit is far above any test's time).
# TEST_TIMEOUT=0 turns the limit off.
limit=${TEST_TIMEOUT:-1800}
total_pass=0; total_fail=0; status=0
times=""
now() { date +%s.%N; }
for t in "$@"; do
  echo "== $t"
  case "$t" in
    *.sh) set -- sh "$t" ;;
    *) set -- "$t" ;;
  esac
  start=$(now)
  if [ "$limit" -gt 0 ] 2>/dev/null; then
    out=$(timeout -k 10 "$limit" "$@" 2>&1)
  else
    out=$("$@" 2>&1)
  fi
  rc=$?
  secs=$(echo "$start $(now)" | awk '{printf "%.1f", $2 - $1}')
  printf '%s\n' "$out"
  times="$times$(printf '%8s s  %s' "$secs" "$t")
"
  echo "-- $t: ${secs} s"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && [ "$limit" -gt 0 ]; then
    echo "-- $t: FAILED: exceeded the time limit of $limit s (TEST_TIMEOUT)"
    total_fail=$((total_fail + 1)); status=1; continue
  fi
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    echo "-- $t: FAILED: exited $rc without a report line"
    total_fail=$((total_fail + 1)); status=1; continue
  fi
  p=$(echo "$line" | cut -d' ' -f1); f=$(echo "$line" | cut -d' ' -f3)
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  if [ "$p" -eq 0 ]; then
    echo "-- $t: FAILED: no check ran (a skip is a failure)"
    total_fail=$((total_fail + 1)); status=1
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "-- $t: FAILED: exited $rc"; total_fail=$((total_fail + 1))
  fi
  [ "$rc" -ne 0 ] && status=1
done
echo "== times"
printf '%s' "$times"
echo "$total_pass passed, $total_fail failed"
exit $status
