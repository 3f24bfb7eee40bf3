# lib.sh - helpers for the end-to-end shell tests (sourced, not run).
# check DESC CMD...: passes when CMD exits 0.
# expect_status N DESC CMD...: passes when CMD exits with status N.
# report: prints "N passed, N failed" and exits non-zero on failure.
# There is no skip: a script that runs no check fails (docs/testing.md).
UPLIFT=${UPLIFT:-./uplift}
PASS=0; FAIL=0
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
check() {
  desc=$1; shift
  if "$@" >/dev/null 2>&1; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL: $desc"; fi
}
expect_status() {
  want=$1; desc=$2; shift 2
  "$@" >"$TMP/out" 2>"$TMP/err"; got=$?
  if [ "$got" -eq "$want" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $desc (exit $got, want $want)"; sed 's/^/  /' "$TMP/err" | head -n 5; fi
}
report() { echo "$PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ]; }
