#!/bin/sh
# e2e_scalars.sh - local scalars in loops, end to end with `uplift raise
# --check`.  A local becomes a per-iteration value (expanded over its loops)
# only when every iteration writes it before reading it; a value carried
# from an earlier iteration is a recurrence: its loop stays a scalar loop
# (a scalar item, issue 14) with the reason, or, where it cannot be cut
# out, refused with exit 1 and a reason naming the statement
# (file:line:col), the loop and the scalar.
# Each kernel below is written the way C code is: `for (int i...)`, locals
# declared inside or outside the loop, if/else, ?:.  A raised kernel must be
# proved (every task line says "proved") and agree with the native original
# (--check, exit 0), and its MLIR must parse (mlir-opt-16, when installed).
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

# kernel NAME: the C text on stdin goes to $TMP/NAME.c
kernel() { cat >"$TMP/$1.c"; }

# refused NAME PATTERN: exit 1, "not raisable" with a reason matching PATTERN
# and the position of a statement of the file.
refused() {
  f=$TMP/$1.c
  "$UPLIFT" raise "$f" --check >"$TMP/out" 2>"$TMP/err"; got=$?
  why=""
  [ "$got" -eq 1 ] || why="exit $got, want 1"
  [ -z "$why" ] && ! grep -q "not raisable: .*$2" "$TMP/err" && why="no reason matching '$2'"
  [ -z "$why" ] && ! grep -q "$f:[0-9]*:[0-9]*" "$TMP/err" && why="no statement position"
  [ -z "$why" ] && [ -s "$TMP/out" ] && why="printed a program"
  if [ -z "$why" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $1 refused: $why"; sed 's/^/  /' "$TMP/err" | head -n 5; fi
}

# scalar NAME PATTERN: exit 0, the recurrence kept as a scalar item (issue
# 14; docs/analyze.md, "Scalar items") whose reason matches PATTERN, with
# the position of a statement, agreeing with the native original, its MLIR
# parsing (tests/e2e_scalar_items.sh checks such items in full).
scalar() {
  f=$TMP/$1.c
  "$UPLIFT" raise "$f" --check >"$TMP/out" 2>"$TMP/err"; got=$?
  why=""
  [ "$got" -eq 0 ] || why="exit $got, want 0"
  [ -z "$why" ] && ! grep -q "^scalar item (line [0-9]*): .*$2" "$TMP/err" && why="no scalar item matching '$2'"
  [ -z "$why" ] && ! grep -q "($f:[0-9]*:[0-9]*) stays scalar" "$TMP/err" && why="no statement position"
  [ -z "$why" ] && ! grep -q "^uplift raise: --check: the raised program agrees" "$TMP/err" && why="--check"
  [ -z "$why" ] && command -v mlir-opt-16 >/dev/null 2>&1 &&
    ! mlir-opt-16 --allow-unregistered-dialect "$TMP/out" >/dev/null 2>>"$TMP/err" &&
    why="mlir-opt-16 rejects the program"
  if [ -z "$why" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $1 scalar: $why"; sed 's/^/  /' "$TMP/err" | head -n 5; fi
}

# unraised NAME TASK: exit 1, the search for TASK finds no program (a small
# budget: the reason, the budget or the op limit, may depend on the load).
unraised() {
  "$UPLIFT" raise "$TMP/$1.c" --timeout 5 >"$TMP/out" 2>"$TMP/err"; got=$?
  if [ "$got" -eq 1 ] && grep -qF "not raised: $2" "$TMP/err" && [ ! -s "$TMP/out" ]; then
    PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $1 not raised: exit $got"; sed 's/^/  /' "$TMP/err" | head -n 5; fi
}

# raised NAME: exit 0 with --check, every task proved.
raised() {
  f=$TMP/$1.c
  "$UPLIFT" raise "$f" --check >"$TMP/out" 2>"$TMP/err"; got=$?
  why=""
  [ "$got" -eq 0 ] || why="exit $got"
  ntask=$(grep -c '^task ' "$TMP/err"); nproved=$(grep -c '^task .*; proved (' "$TMP/err")
  [ -z "$why" ] && { [ "$ntask" -gt 0 ] && [ "$ntask" -eq "$nproved" ]; } ||
    why="${why:-$nproved of $ntask tasks proved}"
  [ -z "$why" ] && ! grep -q '^func.func' "$TMP/out" && why="no program"
  # every SSA value used is defined: mlir-opt parses the module
  [ -z "$why" ] && command -v mlir-opt-16 >/dev/null 2>&1 &&
    ! mlir-opt-16 --allow-unregistered-dialect "$TMP/out" >/dev/null 2>>"$TMP/err" &&
    why="mlir-opt-16 rejects the program"
  if [ -z "$why" ]; then PASS=$((PASS + 1)); else
    FAIL=$((FAIL + 1)); echo "FAIL: $1 raised: $why"; sed 's/^/  /' "$TMP/err" | head -n 5; fi
}

# --- carried across iterations: a recurrence, kept as scalar loops (a
# scalar item), or refused where the kernel is not a sequence of items

# written under a data-dependent if: the other iterations keep the old s
kernel carried_if <<'C'
void kernel_carried_if(int n, double A[n], double B[n]) {
  double s;
  for (int i = 0; i < n; i++) { if (A[i] > -100.0) s = A[i]; B[i] = s; }
}
C
scalar carried_if "loop i carries a dependence of S[0-9] on S[0-9] (flow through [st]"

# written at some iterations only (an affine guard)
kernel carried_affine <<'C'
void kernel_carried_affine(int n, double A[n], double B[n]) {
  double s;
  for (int i = 0; i < n; i++) { if (i <= 1) s = A[i]; B[i] = s; }
}
C
scalar carried_affine "loop i carries a dependence of S[0-9] on S[0-9] (flow through [st]"

# read before written in the same iteration, initialised before the loop
kernel read_first <<'C'
void kernel_read_first(int n, double A[n], double B[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    B[i] = s;
    s = A[i] * 2.0;
  }
}
C
scalar read_first "loop i carries a dependence of S[0-9] on S[0-9] (flow through [st]"

# the same through a ternary
kernel read_first_ternary <<'C'
void kernel_read_first_ternary(int n, double A[n], double B[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    B[i] = s > 0.0 ? s : -s;
    s = A[i];
  }
}
C
scalar read_first_ternary "loop i carries a dependence of S[0-9] on S[0-9] (flow through [st]"

# initialised before the loop, written in one branch only
kernel one_branch <<'C'
void kernel_one_branch(int n, double A[n], double B[n]) {
  double s = 1.0;
  for (int i = 0; i < n; i++) {
    if (A[i] > 0.0) {
      s = A[i];
    }
    B[i] = s * 2.0;
  }
}
C
scalar one_branch "loop i carries a dependence of S[0-9] on S[0-9] (flow through [st]"

# written in an inner loop that may run zero times
kernel inner_loop <<'C'
void kernel_inner_loop(int n, int m, double A[n][m], double B[n]) {
  double s;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      s = A[i][j];
    B[i] = s;
  }
}
C
refused inner_loop "recurrence carried by loop i through s"

# two loops, the scalar declared outside both
kernel carried_2d <<'C'
void kernel_carried_2d(int n, int m, double A[n][m], double B[n][m]) {
  double t = 0.0;
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      if (A[i][j] > 0.0) t = A[i][j];
      B[i][j] = t;
    }
}
C
scalar carried_2d "loop j carries a dependence of S[0-9] on S[0-9] (flow through [st]"

# a first-order recurrence s = s*0.5 + A[i]
kernel first_order <<'C'
void kernel_first_order(int n, double A[n], double B[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s = s * 0.5 + A[i];
    B[i] = s;
  }
}
C
scalar first_order "loop i carries a dependence of S[0-9] on S[0-9] (flow through [st]"

# a running maximum written with if
kernel running_max <<'C'
void kernel_running_max(int n, double A[n], double B[n]) {
  double m = -1.0e30;
  for (int i = 0; i < n; i++) {
    if (A[i] > m) m = A[i];
    B[i] = m;
  }
}
C
# (the update is a max reduction's select, as `m = A[i] > m ? A[i] : m;`;
# B reads its partial values, a scan that no program of the dialect is)
unraised running_max "task 1 (output B)"

# --- written before read in every iteration: raised, proved, checked

# both branches of a data-dependent if write it
kernel both_branches <<'C'
void kernel_both_branches(int n, double A[n], double B[n]) {
  double s;
  for (int i = 0; i < n; i++) {
    if (A[i] > 0.0) s = A[i]; else s = -A[i];
    B[i] = s * 2.0;
  }
}
C
raised both_branches

# set first, then maybe overwritten; declared inside the loop
kernel preset <<'C'
void kernel_preset(int n, double A[n], double B[n]) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    if (A[i] > 0.0) s = A[i];
    B[i] = s + 1.0;
  }
}
C
raised preset

# an affine if/else writing it in both branches
kernel affine_else <<'C'
void kernel_affine_else(int n, double A[n], double B[n]) {
  double s;
  for (int i = 0; i < n; i++) {
    if (i < 2) s = A[i]; else s = 2.0 * A[i];
    B[i] = s + A[i];
  }
}
C
raised affine_else

# a ternary into a local declared in the loop
kernel ternary <<'C'
void kernel_ternary(int n, double A[n], double B[n]) {
  for (int i = 0; i < n; i++) {
    double t = A[i] > 0.0 ? A[i] : 0.5 * A[i];
    B[i] = t * t;
  }
}
C
raised ternary

# declared outside two loops, iterators declared outside too
kernel outer_decl <<'C'
void kernel_outer_decl(int n, int m, double A[n][m], double B[n][m]) {
  double t;
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      t = A[i][j] * 2.0;
      B[i][j] = t + A[i][j];
    }
}
C
raised outer_decl

# an accumulator reset in every row
kernel row_sum <<'C'
void kernel_row_sum(int n, int m, double A[n][m], double B[n]) {
  double s;
  for (int i = 0; i < n; i++) {
    s = 0.0;
    for (int j = 0; j < m; j++) s += A[i][j];
    B[i] = s;
  }
}
C
raised row_sum

# written in an inner loop with constant bounds (it surely runs)
kernel const_inner <<'C'
void kernel_const_inner(int n, double A[n], double B[n]) {
  double s;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 2; k++) s = A[i] * 3.0;
    B[i] = s + 1.0;
  }
}
C
raised const_inner

# read after the loop: the last iteration's value
kernel live_out <<'C'
void kernel_live_out(int n, double A[n], double B[n], double C[1]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s = A[i] * 3.0;
    B[i] = s + 1.0;
  }
  C[0] = s;
}
C
raised live_out

# read before the loop that then writes it
kernel read_before_loop <<'C'
void kernel_read_before_loop(int n, double A[n], double B[n], double C[1]) {
  double s = 2.0;
  C[0] = s;
  for (int i = 0; i < n; i++) {
    s = A[i] * 3.0;
    B[i] = s + 1.0;
  }
}
C
raised read_before_loop

report
