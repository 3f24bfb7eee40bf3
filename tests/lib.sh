# lib.sh - helpers for the end-to-end shell tests (sourced, not run).
# check DESC CMD...: passes when CMD exits 0.
# expect_status N DESC CMD...: passes when CMD exits with status N.
# kernel_want FILE DIALECT: the expected raise result (table below).
# TURN_PY, TAMPER_NESTED_PY, NESTED_OK_PY: python for the reports of kept
# loops (checked, tampered).
# report: prints "N passed, N failed" and exits non-zero on failure.
# There is no skip: a script that runs no check fails (docs/testing.md).
UPLIFT=${UPLIFT:-./uplift}
PASS=0; FAIL=0
# The memory budget counts resident memory (/proc/self/statm); a sanitizer
# build's shadow memory and freed-memory quarantine add to it (symm's tosa
# search measured 5.4 GB under ASan against under 4 GB without), so the
# budget-bound raises of the sanitizer run get three times the default.
case "$UPLIFT" in *build-san/*) SEARCH_MEMORY="--memory 12288" ;; *) SEARCH_MEMORY="" ;; esac
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
# kernel_want FILE DIALECT: what raising a benchmark kernel file to a
# dialect must give (the table of tests/test_mlir_e2e.c): R raises, F is
# refused (tosa has no f64), O is not raised today (the reason in a
# comment; raising is fine too); "" when the file is not in the table.
kernel_want() {
  case "$1" in
    benchmarks/kernels/[!c]*|benchmarks/kernels/c[!9]*) echo R ;;
    # hlo: task 1 (output D) has no program of at most 6 ops (--max-ops);
    # linalg: raised unverified (test_mlir_e2e), but with verification
    # (e2e_raise) task 2 runs out of the default memory budget
    */c99/absdiff.c) case $2 in tosa) echo F ;; *) echo O ;; esac ;;
    */c99/dot_total.c|*/c99/gemv_jloop.c|*/c99/matmul_ikj.c|*/c99/relu_bias.c)
      [ "$2" = tosa ] && echo F || echo R ;;
    */c99/exp_scale.c|*/c99/row_norms.c|*/c99/saxpy_down.c) echo R ;;
    # int data (tests/kernels/int); tosa has no max reduction (row maxima)
    */kernels/int/int_relu_diff.c) [ "$2" = tosa ] && echo O || echo R ;;
    */kernels/int/int_colsum.c|*/kernels/int/int_matmul.c) echo R ;;
    */kernels/int/i64_*) [ "$2" = tosa ] && echo F || echo R ;;
    # narrow and unsigned data: dialects/tosa has none of these types
    */kernels/int/u8_*|*/kernels/int/i16_*|*/kernels/int/u16_*|*/kernels/int/u32_*)
      [ "$2" = tosa ] && echo F || echo R ;;
    # aligned operands (slices): float data, every dialect
    */kernels/slice/*.c) echo R ;;
  esac
}
# turn(it): a re.sub callback turning the first constraint of a mask that
# reads the kept iterator it (== 0 and >= 0 swapped); the wrong bodies of
# the sequence and nested sections (e2e_kept.sh, e2e_nested.sh)
TURN_PY='import json, re, sys
def turn(it):
    def f(m):
        cons = m.group(1).split(", ")
        for j, c in enumerate(cons):
            if re.search(r"(?<![\w])" + it + r"(?![\w])", c):
                cons[j] = c[:-4] + (">= 0" if c.endswith("== 0") else "== 0")
                return "mask[" + ", ".join(cons) + "]"
        return m.group(0)
    return f
'
# FIRST_PY: python defining tamper_first(r, f): in report r, the first
# task (of its parts in order; a report without parts is one) whose
# program f(program, part) changes is changed, r written to sys.argv[2]
# and "PART TASK" printed (PART from 1), then exit
FIRST_PY='import json, re, sys
def tamper_first(r, f):
    for pi, x in enumerate(r.get("parts", [r])):
        for i, t in enumerate(x["tasks"]):
            p = f(t["program"], x)
            if p != t["program"]:
                t["program"] = p
                json.dump(r, open(sys.argv[2], "w"))
                print(pi + 1, i)
                sys.exit(0)
'
# TAMPER_NESTED_PY IN OUT [all]: the report IN with the first task of a
# nested item (below the top level) whose kept iterator is a size
# tampered: a mask constraint in that iterator turned (in its first mask,
# or with `all` in every mask); written to OUT, "made" printed
TAMPER_NESTED_PY="$TURN_PY"'
r = json.load(open(sys.argv[1]))
count = 0 if sys.argv[3:] == ["all"] else 1
def walk(x, depth):
    k = x.get("kept_loops")
    for t in x["tasks"]:
        if depth and k and k[0]["iterator_is_size"]:
            p = re.sub(r"mask\[([^\]]*)\]", turn(k[0]["loop"]), t["program"], count=count)
            if p != t["program"]:
                t["program"] = p
                return True
    return any(walk(p, depth + 1) for p in x.get("parts", []))
if walk(r, 0):
    json.dump(r, open(sys.argv[2], "w"))
    print("made")'
# NESTED_OK_PY REPORT VERDICTS CHECKED [ONLY]: the --json REPORT of a kept
# loop holding kept loops is raised, nests its items (an item with a kept
# loop), every task of every item has one of the comma-separated VERDICTS,
# with CHECKED 1 its --check agrees, and with the regular expression ONLY
# a task not "proved" has a program that ONLY matches
NESTED_OK_PY='import json, re, sys
r = json.load(open(sys.argv[1]))
def tasks(x):
    yield from x["tasks"]
    for p in x.get("parts", []):
        yield from tasks(p)
def depth(x):
    return 1 + max([depth(p) for p in x.get("parts", [])] + [0])
t = list(tasks(r))
sys.exit(not (r["raised"] and depth(r) >= 2 and t
              and (sys.argv[3] != "1" or r["check"]["agree"])
              and any(p.get("kept_loops") for p in r["parts"])
              and all(x["verify"]["verdict"] in sys.argv[2].split(",") for x in t)
              and all(x["verify"]["verdict"] == "proved" or re.search(sys.argv[4], x["program"])
                      for x in t if len(sys.argv) > 4)))'
# nested_tamper_refuted FILE NAME REPORT [all]: a tampered nested item of
# REPORT (TAMPER_NESTED_PY) is made and refuted by uplift verify
nested_tamper_refuted() {
  python3 -c "$TAMPER_NESTED_PY" "$3" "$TMP/$2.bad.json" ${4:-} >"$TMP/badtask"
  check "$2: a tampered nested item is made" grep -q made "$TMP/badtask"
  "$UPLIFT" verify "$1" "$TMP/$2.bad.json" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "$2: a tampered nested item is not proved (exit $rc)" test "$rc" -ne 0
  check "$2: uplift verify refutes it" grep -q "refuted" "$TMP/out"
}
report() { echo "$PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ]; }

# c_agrees NAME FILE PATTERN SETS AGAINST: FILE's --emit c (in
# $TMP/NAME.out.c) has a line PATTERN (its parts' or items' functions),
# compiles, and agrees with the interpreter, and with AGAINST not empty
# with the native original too, at each size set of SETS; $C_RAISE_OPTS
# (a script's budgets) go to the raise
c_agrees() {
  # shellcheck disable=SC2086
  expect_status 0 "$1: --emit c" "$UPLIFT" raise -q "$2" ${C_RAISE_OPTS:-} --emit c -o "$TMP/$1.out.c"
  check "$1: the C has a function per part or item" grep -q "$3" "$TMP/$1.out.c"
  # shellcheck disable=SC2046
  check "$1: the C compiles" cc -c -o "$TMP/$1.o" "$TMP/$1.out.c" $(pkg-config --cflags openblas)
  for set in $4; do
    expect_status 0 "$1: the C+BLAS agrees with the interpreter (size-set $set)" \
      "$UPLIFT" run "$2" --size-set "$set" --native --native-source "$TMP/$1.out.c" \
      --native-cflags "$(pkg-config --cflags --libs openblas)"
    [ -n "$5" ] && expect_status 0 "$1: the C+BLAS agrees with the native original (size-set $set)" \
      "$UPLIFT" run "$2" --size-set "$set" --native --native-source "$TMP/$1.out.c" \
      --against-native --native-cflags "$(pkg-config --cflags --libs openblas)"
  done
}
