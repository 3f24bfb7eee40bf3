#!/bin/sh
# e2e_nested.sh - the PolyBench kernels whose kept loop holds a kept loop
# (issue 14; docs/analyze.md, "Nested kept loops"): lu and cholesky, whose
# pivot loop i holds the kept j sweep.  Each raises item by item down to
# the j sweep's body (a masked product of a row and a column of A, the
# division by the pivot) in every dialect: exit 0, every task of every
# item proved (the division by the pivot, matmul(A, select(mask,
# reciprocal(A), 0)), for finite inputs), the report nests the j loop's
# tasks in the first item of loop i, --check agrees with the natively
# compiled original in f64 (hlo, linalg), uplift verify proves the saved
# report again and refutes it with every mask constraint in the inner
# iterator j of the j loop's first task turned (the first alone may keep
# the program's values: a write region widened where the sum is 0).  tosa raises the kernels as float (--element-type f32); its
# --check is not asserted: LU without pivoting on --check's random
# matrices amplifies rounding past the f32 tolerance 1e-4 (the original's
# own float and double results differ there by far more).  ludcmp and
# crout_flat, whose accumulators are folded into their elements, below.  With
# --timeout 900: cholesky's search takes 10-25 s, several times that
# under the sanitizers.
. tests/lib.sh

NESTED="benchmarks/kernels/partial/lu.c benchmarks/kernels/partial/cholesky.c"
for f in $NESTED; do
  name=$(basename "$f" .c)
  for d in ${RAISE_DIALECTS:-hlo linalg tosa}; do
    fl="--check"
    [ "$d" = tosa ] && fl="--element-type f32"
    # shellcheck disable=SC2086
    expect_status 0 "$name ($d): raised item by item inside its nested kept loops" \
      "$UPLIFT" raise "$f" $fl $SEARCH_MEMORY --timeout 900 --dialect $d --json -o "$TMP/$name.$d.json"
    check "$name ($d): every task of every item proved, nested, --check agrees in f64" \
      python3 -c "$NESTED_OK_PY" "$TMP/$name.$d.json" proved,proved_finite "$([ "$d" = tosa ] || echo 1)"
    [ "$d" != tosa ] && check "$name ($d): its report is proved again by uplift verify" \
      "$UPLIFT" verify "$f" "$TMP/$name.$d.json"
  done
  # a wrong item of the j sweep: every mask constraint in j of its first
  # task turned
  nested_tamper_refuted "$f" "$name" "$TMP/$name.hlo.json" all
  # emitted: linalg's MLIR passes mlir-opt-16 (the pivot loop around
  # @NAME_body, the j sweep a loop function of its own), and the C+BLAS
  # (a function per item) agrees with the native original
  expect_status 0 "$name (linalg): MLIR emitted" \
    "$UPLIFT" raise -q "$f" $SEARCH_MEMORY --timeout 900 --dialect linalg -o "$TMP/$name.mlir"
  check "$name (linalg): the loop calls its body" grep -q "func.call @kernel_${name}_body" "$TMP/$name.mlir"
  check "$name (linalg): output passes mlir-opt-16" mlir-opt-16 "$TMP/$name.mlir"
  c_agrees "$name" "$f" "^static void kernel_${name}_item1(" "2 9" native
done

# Accumulators folded into the element they end in (poly_fold_locals;
# docs/analyze.md, "Accumulators folded into their element"): ludcmp (lu
# through a local w, then the forward and back substitutions through it)
# and crout_flat (typedef'd data, pointer parameters, a flat matrix, C99
# accumulators declared in the loops: Crout's column-then-row order, both
# solves).  Each is a sequence of three kept loops (ludcmp's first
# holding a kept loop), raised in every dialect, every task proved, only
# a division by the pivot for finite inputs (as lu's), --check agrees with
# the natively compiled original in f64 (whose zero pivots give infinities
# and NaN: the folded kernel runs the same operations), uplift verify
# proves the report again and refutes it with mask constraints in a kept
# iterator turned, the linalg MLIR passes mlir-opt-16, and --emit c
# compiles and agrees with the native original.
FINITE_ONLY_DIV_PY='import json, sys
r = json.load(open(sys.argv[1]))
def tasks(x):
    yield from x["tasks"]
    for p in x.get("parts", []):
        yield from tasks(p)
sys.exit(not all(t["verify"]["verdict"] == "proved" or "div" in t["program"] or "reciprocal" in t["program"]
                 for t in tasks(r)))'
for f in benchmarks/kernels/partial/ludcmp.c tests/kernels/kept/crout_flat.c; do
  name=$(basename "$f" .c)
  fn=$(sed -n 's/^[a-z ]*void \(k*[a-z_]*'"$name"'\)(.*/\1/p' "$f" | head -1)
  for d in ${RAISE_DIALECTS:-hlo linalg tosa}; do
    fl="--check"
    [ "$d" = tosa ] && fl="--element-type f32"
    # shellcheck disable=SC2086
    expect_status 0 "$name ($d): raised, its accumulators folded" \
      "$UPLIFT" raise "$f" $fl $SEARCH_MEMORY --timeout 900 --dialect $d --json -o "$TMP/$name.$d.json"
    check "$name ($d): every task of every part proved, --check agrees in f64" \
      python3 -c "$NESTED_OK_PY" "$TMP/$name.$d.json" proved,proved_finite "$([ "$d" = tosa ] || echo 1)"
    check "$name ($d): only a division by the pivot is proved for finite inputs only" \
      python3 -c "$FINITE_ONLY_DIV_PY" "$TMP/$name.$d.json"
    [ "$d" != tosa ] && check "$name ($d): its report is proved again by uplift verify" \
      "$UPLIFT" verify "$f" "$TMP/$name.$d.json"
  done
  nested_tamper_refuted "$f" "$name" "$TMP/$name.hlo.json" all
  expect_status 0 "$name (linalg): MLIR emitted" \
    "$UPLIFT" raise -q "$f" $SEARCH_MEMORY --timeout 900 --dialect linalg -o "$TMP/$name.mlir"
  check "$name (linalg): output passes mlir-opt-16" mlir-opt-16 "$TMP/$name.mlir"
  c_agrees "$name" "$f" "^static void ${fn}_part2(" "2 9" native
done
report
