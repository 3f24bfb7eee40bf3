#!/bin/sh
# e2e_adversarial.sh - small kernels written to break the verifier
# (tests/adversarial/, expectations in tests/adversarial/EXPECTED, written
# from what the C program computes, not from what uplift does).
#
# For each kernel: `uplift raise` must give the expected outcome
#   unsupported         exit 2 with an error (C outside the subset)
#   refused             exit 1 with a reason (not raisable)
#   unproved            exit 1, 3 or 4 (4: the dialect has not the kernel's
#                       element type, as int data in hlo), never 0
#   proved              exit 0, every task proved
#   proved-or-unproved  either; when it says proved, it is checked as proved
# and whenever raise exits 0 (whatever was expected), every task must say
# `proved` or `proved for finite inputs` (exactly when it assumes 0*x = 0
# at masked-out zeros: never `proved` under that assumption) and the
# raised program (--emit c) must agree with the natively
# compiled original, element by element, at every size assignment below and
# on every value set (docs/run.md: int, real, special = NaN/inf/-0, and
# huge where the table asks for it; NaN equals NaN; a task whose verdict
# says it assumes 0*x = 0 at masked-out zeros, proved for finite inputs,
# is compared without the special set, which that assumption leaves out,
# and so is one that says it assumes no input is NaN or -0, proved for
# inputs without NaN or -0 or for finite inputs other than -0):
#   - every size 0, every size 1, 2 and 3, every size one past the
#     largest integer constant of the file plus one;
#   - distinct primes in signature order and in reverse order;
#   - the assignments the table lists for the kernel;
# leaving out those at which the source itself subscripts outside an array
# (undefined in C: x[0] at n = 0).
# A task whose verdict says `for all sizes` (docs/verify.md, "All sizes")
# must say proved, and its kernel's line counts it; where raise exits 0
# the native agreement above covers it like every other task.
# One line per kernel (PASS/FAIL and the reason), then the count.
. tests/lib.sh

DIR=tests/adversarial
# the conditional verdicts (docs/verify.md): proved for finite inputs, for
# inputs without NaN or -0, for finite inputs other than -0
COND='for [a-z ]*inputs\( without NaN or -0\| other than -0\)\?'

BLAS=$(pkg-config --cflags --libs openblas 2>/dev/null)
file_opts() { sed -n 's|^// uplift: ||p' "$1" | head -n 1; }

# The largest integer literal of a C file (comment lines and floating
# literals left out), 0 if none.
max_const() {
  awk '{ line = $0; out = ""
         while (line != "") {
           if (inc) { e = index(line, "*/"); if (!e) break; line = substr(line, e + 2); inc = 0 }
           else { b = index(line, "/*"); if (!b) { out = out line; break }
                  out = out substr(line, 1, b - 1); line = substr(line, b + 2); inc = 1 } }
         sub(/\/\/.*/, "", out); print out }' "$1" |
    grep -oE '[0-9.]*[0-9][0-9.eE]*[fF]?' | grep -E '^[0-9]+$' |
    sort -n | tail -n 1 | grep . || echo 0
}

# Size assignments of kernel $1 (options $2), one per line: N=V,M=W.
size_list() {
  # shellcheck disable=SC2086
  names=$("$UPLIFT" run "$1" $2 2>/dev/null | head -n 1 |
    tr ' ' '\n' | grep '=' | grep -v '^seed=' | sed 's/=.*//')
  [ -n "$names" ] || { echo "-"; return; }
  c=$(max_const "$1")
  for v in 0 1 2 3 $((c + 2)); do
    printf '%s\n' "$names" | sed "s/\$/=$v/" | paste -sd, -
  done
  p=3
  for nm in $names; do printf '%s=%s\n' "$nm" "$p"; p=$((p + 2)); done | paste -sd, -
  count=$(printf '%s\n' "$names" | wc -l)
  p=$((3 + 2 * count))
  for nm in $names; do printf '%s=%s\n' "$nm" "$p"; p=$((p - 2)); done | paste -sd, -
}

# agree FILE OPTS TABLE_SIZES VALUES: the raised C ($TMP/raised.c) against
# the native original; sets $reason on a difference.
agree() {
  sizes=$(size_list "$1" "$2")
  [ "$3" = "-" ] || sizes=$(printf '%s\n%s\n' "$sizes" "$(echo "$3" | tr ';' '\n')")
  set -- "$1" "$2" "$4"
  args=""
  for s in $sizes; do [ "$s" = "-" ] || args="$args --sizes $s"; done
  # shellcheck disable=SC2086
  "$UPLIFT" run "$1" $2 --native --native-source "$TMP/raised.c" --against-native \
    --native-cflags "$BLAS" --values "$3" $args >"$TMP/run.out" 2>"$TMP/run.err"
  rrc=$?
  if [ "$rrc" -ne 0 ] && grep -q "out-of-range subscript" "$TMP/run.err"; then
    # a size at which the source itself subscripts outside an array (x[0]
    # at n = 0) is undefined in C: nothing to agree with there (as in
    # e2e_cblas.sh); the others are run again
    args=""
    for s in $sizes; do
      [ "$s" = "-" ] && continue
      # shellcheck disable=SC2086
      "$UPLIFT" run "$1" $2 --sizes "$s" 2>&1 | grep -q "out-of-range subscript" && continue
      args="$args --sizes $s"
    done
    # shellcheck disable=SC2086
    "$UPLIFT" run "$1" $2 --native --native-source "$TMP/raised.c" --against-native \
      --native-cflags "$BLAS" --values "$3" $args >"$TMP/run.out" 2>"$TMP/run.err"
    rrc=$?
  fi
  if [ "$rrc" -ne 0 ]; then
    line=$(grep -m 1 'error' "$TMP/run.err")
    # the first run (header line) without an agreement line
    at=$(awk '/^kernel /{if (h != "" && !ok) exit; h = $0; ok = 0}
              /agrees/{ok = 1} END{if (h != "" && !ok) print h}' "$TMP/run.out" | cut -d: -f2-)
    reason="raised program differs from the native original (exit $rrc) at$at: $line"
  fi
}

nk=0
allsizes=0
while read -r file outcome sizes values; do
  case "$file" in '' | '#'*) continue ;; esac
  f=$DIR/$file
  nk=$((nk + 1))
  [ -e "$f" ] || { FAIL=$((FAIL + 1)); echo "FAIL $file: missing file"; continue; }
  [ -n "$values" ] && [ "$values" != "-" ] || values=int,real,special
  [ -n "$sizes" ] || sizes=-
  opts=$(file_opts "$f")
  rm -f "$TMP/raised.c"
  assumes=""
  # --timeout only bounds searches that find nothing: every expectation
  # that allows `unproved` allows it whatever the time budget; kernels that
  # must be proved get the default budget, so that a loaded machine does
  # not fail them.
  budget=2
  [ "$outcome" = proved ] && budget=120
  # shellcheck disable=SC2086
  "$UPLIFT" raise "$f" $opts --timeout "$budget" --emit c -o "$TMP/raised.c" \
    >"$TMP/out" 2>"$TMP/err"
  rc=$?
  reason=""
  case "$outcome" in
  unsupported)
    [ "$rc" -eq 2 ] || reason="exit $rc, want 2 (unsupported C)"
    [ -n "$reason" ] || grep -q 'error:' "$TMP/err" || reason="exit 2 without an error message"
    ;;
  refused)
    [ "$rc" -eq 1 ] || reason="exit $rc, want 1 (not raisable)"
    [ -n "$reason" ] || grep -q 'not raised' "$TMP/err" || reason="exit 1 without a reason"
    ;;
  unproved) case "$rc" in 1 | 3 | 4) ;; *) reason="exit $rc, want 1, 3 or 4 (unproved)" ;; esac ;;
  proved) [ "$rc" -eq 0 ] || reason="exit $rc, want 0 (proved): $(grep -m 1 'not raised\|error\|refuted\|unknown' "$TMP/err")" ;;
  proved-or-unproved)
    case "$rc" in 0 | 1 | 3 | 4) ;; *) reason="exit $rc, want 0, 1, 3 or 4" ;; esac ;;
  *) reason="unknown outcome '$outcome' in EXPECTED" ;;
  esac
  if [ "$rc" -eq 0 ] && [ -z "$reason" ]; then
    ntask=$(grep -c '^task [0-9]' "$TMP/err")
    nproved=$(grep '^task [0-9]' "$TMP/err" | grep -c "; proved \\($COND \\)\\?(")
    nmasked=$(grep '^task [0-9]' "$TMP/err" | grep -c '; proved (.*assumes 0\*x = 0 at masked-out zeros')
    nfinite=$(grep '^task [0-9]' "$TMP/err" | grep '; proved for finite inputs (' | grep -vc 'assumes 0\*x = 0 at masked-out zeros')
    # a program of scalar items only (a recurrence run as written,
    # docs/analyze.md "Scalar items") has no task and claims no proof
    nscalar=$(grep -c '^scalar item (line [0-9]*): ' "$TMP/err")
    [ "$outcome" = proved ] && nscalar=0
    if { [ "$ntask" -eq 0 ] && [ "$nscalar" -eq 0 ]; } || [ "$ntask" -ne "$nproved" ]; then
      reason="exit 0 but $nproved of $ntask tasks say proved"
    elif [ "$nmasked" -ne 0 ] || [ "$nfinite" -ne 0 ]; then
      reason="$nmasked tasks proved under the masked-zero assumption, $nfinite proved for finite inputs without it"
    elif [ ! -s "$TMP/raised.c" ]; then
      reason="exit 0 but no C output"
    else
      # A verdict that says it assumes 0*x = 0 at masked-out zeros
      # (docs/verify.md) promises nothing where an infinity or NaN meets
      # one: those runs leave out the special value set (NaN, inf).
      assumes=""
      if grep '^task [0-9]' "$TMP/err" | grep -q 'assumes 0\*x = 0 at masked-out zeros'; then
        assumes=" (assumes 0*x = 0 at masked-out zeros: no NaN/inf inputs)"
      elif grep '^task [0-9]' "$TMP/err" | grep -q 'assumes no input is NaN or -0'; then
        assumes=" (assumes no input is NaN or -0)"
      fi
      if [ -n "$assumes" ]; then
        values=$(echo "$values" | tr ',' '\n' | grep -v '^special$' | paste -sd, -)
        [ -n "$values" ] || values=int
      fi
      agree "$f" "$opts" "$sizes" "$values"
    fi
  fi
  nall=$(grep '^task [0-9]' "$TMP/err" | grep -c 'for all sizes')
  nallp=$(grep '^task [0-9]' "$TMP/err" | grep -c "; proved \\($COND \\)\\?(.*for all sizes")
  [ "$nall" -eq "$nallp" ] || reason="${reason:+$reason; }a task says for all sizes without proved"
  allsizes=$((allsizes + nall))
  if [ "$rc" -eq 0 ] && [ -z "$reason" ]; then
    case "$outcome" in unproved | refused | unsupported)
      reason="exit 0 (proved) where C semantics say $outcome" ;;
    esac
  fi
  if [ -n "$reason" ]; then
    FAIL=$((FAIL + 1))
    echo "FAIL $file ($outcome): $reason"
  else
    PASS=$((PASS + 1))
    case "$rc" in
    0) if [ "${nscalar:-0}" -gt 0 ] && [ "$ntask" -eq 0 ]; then
         echo "PASS $file ($outcome): $nscalar scalar items (run as written, not proved), agrees with the native original"
       else
         echo "PASS $file ($outcome): proved, agrees with the native original$assumes, $nall tasks for all sizes"
       fi ;;
    *) echo "PASS $file ($outcome): exit $rc, $nall tasks for all sizes" ;;
    esac
  fi
done <"$DIR/EXPECTED"

# every kernel file has a line in the table, and there are enough of them
for f in "$DIR"/*.c; do
  b=$(basename "$f")
  grep -q "^$b " "$DIR/EXPECTED" || { FAIL=$((FAIL + 1)); echo "FAIL $b: no line in EXPECTED"; }
done
echo "adversarial kernels checked: $nk (task outputs proved for all sizes: $allsizes)"
[ "$nk" -ge 60 ] || { FAIL=$((FAIL + 1)); echo "FAIL: fewer than 60 kernels in EXPECTED"; }
report
