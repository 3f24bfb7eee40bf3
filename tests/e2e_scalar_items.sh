#!/bin/sh
# e2e_scalar_items.sh - scalar items (issue 14; docs/analyze.md, "Scalar
# items"): statements that stay scalar loops, run as written inside the
# program.  For each kernel: `uplift raise --check` gives one program (exit
# 0) whose report names the scalar item, its statements and why, and
# claims no proof for it; --check agrees with the native original; the
# --json report has the item's statements, `uplift verify` accepts it and
# refuses it with one statement tampered; the C (--emit c) compiles and
# agrees with the interpreter and the native original, and a C whose
# scalar statement is tampered does not; the MLIR passes mlir-opt-16 in
# every dialect, static and dynamic shapes (tests/test_mlir_e2e.c runs
# linalg and tosa in mlir-cpu-runner-16).  prefix_scale mixes a scalar
# item and a proved raised item in one kept loop's body; back_sweep is a
# downward scalar loop before a raised item.
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

# The local-scalar recurrences of e2e_scalars.sh (refused before issue 14's
# scalar items): a value read before it is written, carried to the next
# iteration and past the loop.
cat >"$TMP/read_first.c" <<'C'
void kernel_read_first(int n, double A[n], double B[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    B[i] = s;
    s = A[i] * 2.0;
  }
}
C
cat >"$TMP/carry_out.c" <<'C'
void kernel_carry_out(int n, double A[n], double B[n]) {
  double s = 1.0;
  for (int i = 0; i < n; i++) {
    B[i] = s;
    s = A[i] * 0.5 + s;
  }
  for (int i = 0; i < n; i++)
    B[i] = B[i] * s;
}
C

# scalar_item NAME FILE NITEMS: the checks above
scalar_item() {
  name=$1 f=$2
  expect_status 0 "$name: raised with --check" "$UPLIFT" raise "$f" --check
  cp "$TMP/err" "$TMP/$name.err"
  check "$name: the report names the scalar item and why" \
    grep -q "^scalar item (line [0-9]*): .* statements\? kept as scalar loops.*: every loop around it is kept" "$TMP/$name.err"
  check "$name: each statement with its position" grep -q "^  S0 ($f:[0-9]*:[0-9]*) stays scalar: " "$TMP/$name.err"
  check "$name: the summary counts $3 scalar item(s), not proved" \
    grep -q "with $3 scalar items\? (statements kept as scalar loops, run as written: verdict scalar, not proved)" "$TMP/$name.err"
  check "$name: --check agrees" grep -q "^uplift raise: --check: the raised program agrees" "$TMP/$name.err"
  # the report: a scalar object whose verdict is its own word, no task
  expect_status 0 "$name: --json" "$UPLIFT" raise "$f" --json -o "$TMP/$name.json"
  check "$name: --json has the scalar item, its verdict scalar, its statements" python3 -c '
import json, sys
def items(r):
    if "scalar" in r: yield r
    for p in r.get("parts", []): yield from items(p)
r = json.load(open(sys.argv[1]))
s = list(items(r))
assert len(s) == int(sys.argv[2]), s
for x in s:
    assert x["scalar"]["verdict"] == "scalar" and x["tasks"] == []
    assert x["scalar"]["statements"] and all(y["text"] and y["why"] for y in x["scalar"]["statements"])
' "$TMP/$name.json" "$3"
  expect_status 0 "$name: uplift verify accepts the report" "$UPLIFT" verify "$f" "$TMP/$name.json"
  check "$name: uplift verify names the scalar item" grep -q "^scalar item: .* run as written" "$TMP/out"
  # what verify --json claims: the tasks proved, the kernel not (its scalar items are not)
  check "$name: uplift verify --json: not \"proved\", tasks_proved, $3 scalar item(s)" sh -c "
    '$UPLIFT' verify '$f' '$TMP/$name.json' --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r[\"proved\"] is False and r[\"tasks_proved\"] is True and r[\"scalar_items\"] == $3, r'"
  # a scalar statement tampered in the report: its first `+`, `*` or `<`
  # turned, refused as not the source's
  python3 -c '
import json, sys
def items(r):
    if "scalar" in r: yield r
    for p in r.get("parts", []): yield from items(p)
r = json.load(open(sys.argv[1]))
st = next(items(r))["scalar"]["statements"][0]
for a, b in ((" + ", " - "), (" * ", " + "), (" < ", " > "), (" = ", " -= ")):
    if a in st["text"]:
        st["text"] = st["text"].replace(a, b, 1)
        break
json.dump(r, open(sys.argv[2], "w"))
' "$TMP/$name.json" "$TMP/$name.bad.json"
  check "$name: a tampered report differs" sh -c "! cmp -s '$TMP/$name.json' '$TMP/$name.bad.json'"
  expect_status 2 "$name: uplift verify refuses the tampered statement" \
    "$UPLIFT" verify "$f" "$TMP/$name.bad.json"
  check "$name: ... naming it" grep -q "scalar item: statement 0 is .* in the report, .* in the source" "$TMP/err"
  # the C: as written, agreeing; a tampered scalar statement disagrees
  c_agrees "$name" "$f" "scalar item\|statements stay scalar loops" "0 1" native
  # the scalar item's first element write made one more: `...] = E + 1;`
  python3 -c '
import re, sys
lines = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(lines) if "scalar item" in l or "stay scalar loops" in l)
for i in range(start, len(lines)):
    if re.search(r"\] = .*;$", lines[i]):
        lines[i] = lines[i][:-1] + " + 1;"
        break
open(sys.argv[2], "w").write("\n".join(lines))
' "$TMP/$name.out.c" "$TMP/$name.bad.c"
  check "$name: a mutant C differs in text" sh -c "! cmp -s '$TMP/$name.out.c' '$TMP/$name.bad.c'"
  expect_status 3 "$name: the mutant C disagrees with the native original" \
    "$UPLIFT" run "$f" --size-set 1 --native --native-source "$TMP/$name.bad.c" \
    --against-native --native-cflags "$(pkg-config --cflags --libs openblas)"
  # the MLIR, every dialect (tosa: as float), static and dynamic shapes
  for d in linalg tosa hlo; do
    et=""; [ "$d" = tosa ] && et="--element-type f32"
    # shellcheck disable=SC2086
    if "$UPLIFT" raise -q "$f" --dialect "$d" $et -o "$TMP/$name.$d.mlir" 2>"$TMP/err"; then
      check "$name ($d): scf.for over tensor.extract and tensor.insert" \
        sh -c "grep -q 'scf.for' '$TMP/$name.$d.mlir' && grep -q 'tensor.extract' '$TMP/$name.$d.mlir' && grep -q 'tensor.insert' '$TMP/$name.$d.mlir'"
      check "$name ($d): passes mlir-opt-16" mlir-opt-16 --allow-unregistered-dialect "$TMP/$name.$d.mlir"
      # shellcheck disable=SC2086
      check "$name ($d, dynamic): passes mlir-opt-16" sh -c "'$UPLIFT' raise -q '$f' --dialect $d $et --shapes dynamic | mlir-opt-16 --allow-unregistered-dialect"
    else
      FAIL=$((FAIL + 1)); echo "FAIL: $name ($d): no MLIR"; sed 's/^/  /' "$TMP/err" | head -n 3
    fi
  done
}

scalar_item seidel-2d benchmarks/kernels/partial/seidel-2d.c 1
scalar_item floyd-warshall benchmarks/kernels/partial/floyd-warshall.c 1
scalar_item nussinov benchmarks/kernels/partial/nussinov.c 1
scalar_item prefix_scale tests/kernels/scalar/prefix_scale.c 1
scalar_item clip_walk tests/kernels/scalar/clip_walk.c 1
scalar_item back_sweep tests/kernels/scalar/back_sweep.c 1
scalar_item guarded_walk tests/kernels/scalar/guarded_walk.c 1
scalar_item read_first "$TMP/read_first.c" 1
scalar_item carry_out "$TMP/carry_out.c" 1

# C's lazy forms stay lazy: the read of x[i - 1] that `i > 0 &&` guards is
# made under scf.if (at i = 0 an arith.select would read x[-1])
check "guarded_walk (linalg): the guarded reads are under scf.if, no arith.select" \
  sh -c "grep -q 'scf.if' '$TMP/guarded_walk.linalg.mlir' && ! grep -q 'arith.select' '$TMP/guarded_walk.linalg.mlir'"

# both kinds in one kept loop's body: the recurrence a scalar item, the
# scaling a raised task, proved
check "prefix_scale: the kept loop's body is a scalar item then a raised item" \
  sh -c "grep -q '^part 1 of 2 (line 7): scalar loops' '$TMP/prefix_scale.err' && grep -q '^part 2 of 2 (line 9): statements' '$TMP/prefix_scale.err'"
check "prefix_scale: the raised item's task is proved" grep -q '^task 0 y: .*; proved (' "$TMP/prefix_scale.err"
# nussinov: the kept loop i around the scalar j loop, its slice seq_i cut
check "nussinov: a kept loop around the scalar item" \
  sh -c "grep -q '^kept loop i (line 89): .*its body as 1 item' '$TMP/nussinov.err' && grep -q '^part 1 of 1 (line 90): scalar loops' '$TMP/nussinov.err'"
# a statement that stays scalar but reads nothing its loop carries stays a
# raised task (trisolv's x[i] = b[i]): no scalar item there
expect_status 0 "trisolv: raised, no scalar item" "$UPLIFT" raise benchmarks/kernels/partial/trisolv.c
check "trisolv: no scalar item" sh -c "! grep -q 'scalar item' '$TMP/err'"
report
