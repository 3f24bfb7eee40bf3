#!/bin/sh
# e2e_tamper.sh - tampered reports must be refuted by `uplift verify`.
#
# For some benchmark kernels and some kernels of tests/adversarial/, the
# report of `uplift raise --json` is saved, and each task's program P (of
# output type T[D]) is changed in ways that show only at some sizes or
# elements:
#   size >= C    select(mask[S - C >= 0]:i1[D], add(P, 1:T[D]), P) for the
#                first size S of D and C = 4, 9, 31 (beyond the default
#                bound 3)
#   index >= C   select(mask[i0 - C >= 0]:i1[D], add(P, 1:T[D]), P), C = 4
#                and 30, when D's first dim is a size
#   unused size  select(mask[U - 2 >= 0]:i1[D], add(P, 1:T[D]), P) for a
#                size U of the kernel that D does not name (gemm task 0:
#                mask[nk - 2 >= 0] on C = beta*C)
#   doubled      select(mask[S - 9 >= 0]:i1[D], multiply(P, 2:T[D]), P)
#                (P not a constant)
#   small sizes  select(mask[S - 4 >= 0]:i1[D], P, add(P, 1:T[D])): the
#                change shows at sizes below 4 (a control)
# Each change shows at some size, so `uplift verify` must say `refuted`
# for the task (with a counterexample) and exit 3, never `proved`.
# One more edit is not a change: select(mask[S - 4 >= 0]:i1[D], P, P) must
# not be refuted.  The untampered report must be proved.
# No tampered program may be proved for all sizes (docs/verify.md, "All
# sizes"); tests/test_allsizes.c checks that without the bounded check.
# One line per tampered report (PASS/FAIL and why), then the count.
. tests/lib.sh

KERNELS="${TAMPER_KERNELS:-benchmarks/kernels/gemm.c benchmarks/kernels/atax.c benchmarks/kernels/syrk.c
benchmarks/kernels/trmm.c benchmarks/kernels/2mm.c benchmarks/kernels/c99/saxpy_down.c
benchmarks/kernels/c99/relu_bias.c tests/adversarial/ctl_gemv_float.c
tests/adversarial/red_sum_empty.c tests/adversarial/tri_lower_copy.c
tests/adversarial/empty_reduction_init.c}"

file_opts() { sed -n 's|^// uplift: ||p' "$1" | head -n 1; }

# $TMP/r.json with the program of every task entry whose line in $TMP/progs
# (entry n on line n+1) is not empty replaced by that line: $TMP/t.json
tamper() {
  awk 'NR == FNR { p[FNR - 1] = $0; next }
    /"program":/ { if (p[i + 0] != "") sub(/"program":.*/, "\"program\":\t\"" p[i + 0] "\","); i++ }
    { print }' "$TMP/progs" "$TMP/r.json" >"$TMP/t.json"
}

# The tampered program of entry $1 for variant $2 (empty: not applicable),
# from the entry's facts (prog, dims, et, s: a size of the dims, first: 1
# when the first dim is a size, u: a kernel size not in the dims).
variant() {
  . "$TMP/e.$1"
  changed="add($prog, 1:$et[$dims])"
  case "$2" in
  size*) [ -n "$s" ] && echo "select(mask[$s - ${2#size} >= 0]:i1[$dims], $changed, $prog)" ;;
  small) [ -n "$s" ] && echo "select(mask[$s - 4 >= 0]:i1[$dims], $prog, $changed)" ;;
  nochange) [ -n "$s" ] && echo "select(mask[$s - 4 >= 0]:i1[$dims], $prog, $prog)" ;;
  index*) [ "$first" = 1 ] && echo "select(mask[i0 - ${2#index} >= 0]:i1[$dims], $changed, $prog)" ;;
  unused) [ -n "$u" ] && echo "select(mask[$u - 2 >= 0]:i1[$dims], $changed, $prog)" ;;
  scale) # not for a constant program (2 * 0 = 0 is no change)
    case "$prog" in [0-9-]*) ;; *)
      [ -n "$s" ] && echo "select(mask[$s - 9 >= 0]:i1[$dims], multiply($prog, 2:$et[$dims]), $prog)" ;;
    esac ;;
  esac
}

describe() {
  . "$TMP/e.$1"
  case "$2" in
  size*) echo "size $s >= ${2#size}" ;;
  small) echo "small sizes ($s < 4)" ;;
  nochange) echo "no change" ;;
  index*) echo "index i0 >= ${2#index}" ;;
  unused) echo "unused size $u >= 2" ;;
  scale) echo "doubled at size $s >= 9" ;;
  esac
}

nvariants=0
for f in $KERNELS; do
  opts=$(file_opts "$f")
  # shellcheck disable=SC2086
  "$UPLIFT" raise "$f" $opts --json -q -o "$TMP/r.json" 2>"$TMP/rerr"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    FAIL=$((FAIL + 1)); echo "FAIL $f: raise exited $rc: $(head -n 1 "$TMP/rerr")"; continue
  fi
  # shellcheck disable=SC2086
  expect_status 0 "$f: the untampered report is proved" "$UPLIFT" verify "$f" "$TMP/r.json" $opts
  # shellcheck disable=SC2086
  "$UPLIFT" dump "$f" $opts >"$TMP/dump"
  sizes=$(grep -m 1 '^void ' "$TMP/dump" | grep -oE '\bint [A-Za-z_][A-Za-z0-9_]*[,)]' |
    sed 's/^int //; s/[,)]$//')
  # the facts of every task entry
  entries=0
  for t in $(grep '"task":' "$TMP/r.json" | grep -oE '[0-9]+'); do
    n=$((entries + 1))
    prog=$(grep '"program":' "$TMP/r.json" | sed -n "${n}p" |
      sed 's/^[^:]*:[[:space:]]*"//; s/",*[[:space:]]*$//')
    out=$(grep '"outputs":' "$TMP/r.json" | sed -n "${n}p" | grep -oE '"[A-Za-z_][A-Za-z0-9_]*"\]' | tr -d '"]')
    decl=$(grep -oE "(double|float) $out(\[[^]]*\])*" "$TMP/dump" | head -n 1)
    case "$decl" in double*) et=f64 ;; float*) et=f32 ;; *) et="" ;; esac
    dims=$(echo "$decl" | grep -oE '\[[^]]*\]' | tr -d '[]' | paste -sd, -)
    case "$dims" in *[!A-Za-z0-9_,]*) et="" ;; esac
    if [ -z "$et" ] || [ "$prog" = "null" ]; then
      FAIL=$((FAIL + 1)); echo "FAIL $f task $t: cannot type output '$out' ($decl)"
      prog=""
    fi
    s=""; first=0; u=""
    for d in $(echo "$dims" | tr ',' ' '); do
      echo "$sizes" | grep -qx "$d" && { s=$d; break; }
    done
    echo "$sizes" | grep -qx "$(echo "$dims" | cut -d, -f1)" && first=1
    for x in $sizes; do
      echo "$dims" | tr ',' '\n' | grep -qx "$x" || { u=$x; break; }
    done
    [ -n "$prog" ] || { s=""; first=0; u=""; }
    printf "t=%s\nprog='%s'\ndims='%s'\net=%s\ns=%s\nfirst=%s\nu=%s\n" \
      "$t" "$prog" "$dims" "$et" "$s" "$first" "$u" >"$TMP/e.$entries"
    entries=$((entries + 1))
  done
  # one verify per kind of change, applied to every task it fits
  for kind in size4 size9 size31 index4 index30 unused scale small nochange; do
    : >"$TMP/progs"
    e=0; any=0
    while [ "$e" -lt "$entries" ]; do
      v=$(variant "$e" "$kind")
      echo "$v" >>"$TMP/progs"
      [ -n "$v" ] && any=1
      e=$((e + 1))
    done
    [ "$any" = 1 ] || continue
    tamper
    # shellcheck disable=SC2086
    "$UPLIFT" verify "$f" "$TMP/t.json" $opts >"$TMP/vout" 2>"$TMP/verr"
    vrc=$?
    e=0
    while [ "$e" -lt "$entries" ]; do
      v=$(sed -n "$((e + 1))p" "$TMP/progs")
      if [ -n "$v" ]; then
        nvariants=$((nvariants + 1))
        . "$TMP/e.$e"
        line=$(grep -m 1 "^task $t (" "$TMP/vout")
        why=""
        if [ "$kind" = nochange ]; then
          case "$line" in
          *": refuted ("* | "") why="exit $vrc: ${line:-$(head -n 1 "$TMP/verr")}" ;;
          esac
        else
          case "$line" in
          *": refuted ("*)
            [ "$vrc" -eq 3 ] || why="refuted but exit $vrc"
            echo "$line" | grep -q "counterexample" || why="refuted without a counterexample" ;;
          "") why="exit $vrc, no verdict line: $(head -n 1 "$TMP/verr")" ;;
          *) why="not refuted: $line" ;;
          esac
        fi
        case "$kind:$line" in nochange:*) ;; *"for all sizes"*) why="all sizes claimed: $line" ;; esac
        grep -qF "\"$v\"" "$TMP/t.json" || why="the tampered program is not in the report"
        d=$(describe "$e" "$kind")
        if [ -n "$why" ]; then
          FAIL=$((FAIL + 1)); echo "FAIL $f task $t $d: $why"
          echo "  program: $v"
        else
          PASS=$((PASS + 1)); echo "PASS $f task $t $d: ${line#*: }" | cut -c1-160
        fi
      fi
      e=$((e + 1))
    done
  done
done
echo "tampered task programs checked: $nvariants"
[ "$nvariants" -ge 50 ] || { FAIL=$((FAIL + 1)); echo "FAIL: fewer than 50 tampered programs"; }
report
