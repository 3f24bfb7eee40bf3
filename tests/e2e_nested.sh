#!/bin/sh
# e2e_nested.sh - the PolyBench kernels whose kept loop holds a kept loop
# (issue 14; docs/analyze.md, "Nested kept loops"): lu and cholesky, whose
# pivot loop i holds the kept j sweep, and ludcmp, a sequence of three
# kept loops whose first is lu's through a local accumulator w; with
# doolittle_flat (tests/kernels/kept: a typedef'd element, pointer
# parameters, a flat matrix, a C99 accumulator declared in each loop),
# whose accumulators are folded into their elements the same way (docs/analyze.md, "Accumulators folded into their
# element").  Each raises item by item down to the j sweep's body (a
# masked product of a row and a column of A, the division by the pivot)
# in every dialect: exit 0, every task of every item proved (the division
# by the pivot, matmul(A, select(mask, reciprocal(A), 0)), and cholesky's
# diagonal for finite inputs; in ludcmp and doolittle_flat only a task
# that divides), the report nests its items, --check agrees with
# the natively compiled original in f64 (hlo, linalg; its zero pivots
# give infinities and NaN, which the folded kernels give the same),
# uplift verify proves the saved report again and refutes it with every
# mask constraint in the inner kept iterator of a task turned (the first
# alone may keep the program's values: a write region widened where the
# sum is 0).  tosa raises the kernels as float (--element-type f32); its
# --check is not asserted: LU without pivoting on --check's random
# matrices amplifies rounding past the f32 tolerance 1e-4 (the original's
# own float and double results differ there by far more).  With
# --timeout 900: cholesky's search takes 10-25 s, several times that
# under the sanitizers.
. tests/lib.sh

NESTED="benchmarks/kernels/partial/lu.c benchmarks/kernels/partial/cholesky.c
benchmarks/kernels/partial/ludcmp.c tests/kernels/kept/doolittle_flat.c"
# the raises of --emit c under the same budgets (c_agrees): cholesky's
# search passes the default --timeout on a loaded machine
C_RAISE_OPTS="$SEARCH_MEMORY --timeout 900"
# those written through local accumulators: NAME:LOCAL
FOLDED="ludcmp:w doolittle_flat:acc,acc_2,acc_3,acc_4"
for f in $NESTED; do
  name=$(basename "$f" .c)
  # the kernel function: kernel_lu, doolittle_flat
  fn=$(sed -n 's/^[a-z ]*void \(k*[a-z_]*'"$name"'\)(.*/\1/p' "$f" | head -1)
  # the kernels written through local accumulators have them folded; their
  # tasks are proved outright but the division by the pivot (as lu's)
  folded=$(for x in $FOLDED; do [ "${x%%:*}" = "$name" ] && echo "${x#*:}"; done)
  only=""
  [ -n "$folded" ] && only='div|reciprocal'
  for d in ${RAISE_DIALECTS:-hlo linalg tosa}; do
    fl="--check"
    [ "$d" = tosa ] && fl="--element-type f32"
    # shellcheck disable=SC2086
    expect_status 0 "$name ($d): raised item by item inside its kept loops" \
      "$UPLIFT" raise "$f" $fl $SEARCH_MEMORY --timeout 900 --dialect $d --json -o "$TMP/$name.$d.json"
    # shellcheck disable=SC2086
    check "$name ($d): every task of every item proved${only:+ (for finite inputs only where it divides)}, nested, --check agrees in f64" \
      python3 -c "$NESTED_OK_PY" "$TMP/$name.$d.json" proved,proved_finite \
      "$([ "$d" = tosa ] || echo 1)" $only
    [ "$d" != tosa ] && check "$name ($d): its report is proved again by uplift verify" \
      "$UPLIFT" verify "$f" "$TMP/$name.$d.json"
  done
  [ -n "$folded" ] && check "$name: its report names the folded accumulator $folded" \
    python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1])).get("folded_locals", "").replace(" ", "") != sys.argv[2])' "$TMP/$name.hlo.json" "$folded"
  # a wrong item of the kept sweep: every mask constraint in its iterator
  # of its first task turned
  nested_tamper_refuted "$f" "$name" "$TMP/$name.hlo.json" all
  # emitted: linalg's MLIR passes mlir-opt-16 (the pivot loop around
  # @NAME_body, or a part's, the j sweep a loop function of its own), and
  # the C+BLAS (a function per part or item) agrees with the native
  # original
  expect_status 0 "$name (linalg): MLIR emitted" \
    "$UPLIFT" raise -q "$f" $SEARCH_MEMORY --timeout 900 --dialect linalg -o "$TMP/$name.mlir"
  check "$name (linalg): the loop calls its body" grep -q "func.call @${fn}[a-z0-9_]*_body(" "$TMP/$name.mlir"
  check "$name (linalg): output passes mlir-opt-16" mlir-opt-16 "$TMP/$name.mlir"
  c_agrees "$name" "$f" "^static void ${fn}_[a-z]*1(" "2 9" native
done
report
