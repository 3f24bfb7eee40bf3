#!/bin/sh
# bench.sh - the benchmark table: every kernel of benchmarks/kernels (found
# by glob) raised to every shipped dialect with one configuration; records
# raised or not, ops, the Table II statistics, synthesis and verification
# time; then, for every kernel raised to hlo, times the original (gcc -O3
# -march=native) against the raised C+BLAS code (uplift raise --emit c) at
# the file's LARGE_DATASET sizes, median of 5 runs each, both in this run;
# writes benchmarks/results.json, benchmarks/results.md and the chart
# benchmarks/synthesis.svg.  OpenBLAS runs with OPENBLAS_NUM_THREADS=2.
# "verify s" sums the seconds of each task's final check inside the raise
# (the JSON report's verify.seconds); "recheck s" is the wall time of
# `uplift verify` re-checking the saved report from scratch (parse, analysis,
# every task at bound 3, real mode).
set -u
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-2}
RUNS=${RUNS:-5}
BLAS=$(pkg-config --cflags --libs openblas)
# the original's flags: gcc's -O3 defaults (uplift's native runner adds
# -ffp-contract=off for exact cross-checks; -ffp-contract=fast restores
# the default for timing)
OFLAGS="-O3 -march=native -ffp-contract=fast"
UPLIFT=${UPLIFT:-./uplift}
# each raise's search budget is counted (--work, millions of result
# elements; tosa's symm, the largest, takes about 900), so whether a kernel
# raises does not depend on the machine's load; --timeout is a hang guard
# and the seconds are measured, not capped
BUDGET="--work 3000 --timeout 900"
out=benchmarks/results
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in benchmarks/kernels/*.c; do
  name=$(basename "$f" .c)
  for d in hlo linalg tosa; do
    start=$(date +%s.%N)
    # tosa (MLIR 16) has no f64: the kernels are raised as float there
    fl=""; [ "$d" = tosa ] && fl="-D DATA_TYPE_IS_FLOAT"
    "$UPLIFT" raise "$f" $fl --dialect "$d" --json $BUDGET >"$tmp/$name.$d.json" 2>"$tmp/$name.$d.err"
    echo $? >"$tmp/$name.$d.rc"
    end=$(date +%s.%N)
    echo "$start $end" >"$tmp/$name.$d.time"
    # the real time of re-checking the final programs alone (uplift verify)
    if [ "$(cat "$tmp/$name.$d.rc")" = 0 ]; then
      vs=$(date +%s.%N)
      "$UPLIFT" verify "$f" "$tmp/$name.$d.json" $fl --json >"$tmp/$name.$d.vjson" 2>/dev/null
      ve=$(date +%s.%N)
      echo "$vs $ve" >"$tmp/$name.$d.vtime"
    fi
    printf '%-12s %-7s exit %s\n' "$name" "$d" "$(cat "$tmp/$name.$d.rc")" >&2
  done
done
# speed: LARGE_DATASET sizes from the file (Polybench convention: macro NI
# gives size parameter ni), both programs through uplift's native runner
# (same inputs, same call path, the kernel call alone is timed)
large_sizes() {
  params=$("$UPLIFT" dump "$1" | sed -n 2p | grep -o 'int [a-z_0-9]*' | sed 's/int //')
  awk '/# *ifdef LARGE_DATASET/{on=1; next} on && /# *endif/{on=0} on && /define/{print tolower($3) "=" $4}' "$1" |
    while IFS== read -r n v; do
      for p in $params; do [ "$p" = "$n" ] && printf '%s=%s,' "$n" "$v"; done
    done | sed 's/,$//'
}
for f in benchmarks/kernels/*.c; do
  name=$(basename "$f" .c)
  [ "$(cat "$tmp/$name.hlo.rc")" = 0 ] || continue
  sizes=$(large_sizes "$f")
  echo "$sizes" >"$tmp/$name.sizes"
  "$UPLIFT" raise "$f" --emit c --verify none $BUDGET -o "$tmp/$name.cblas.c" 2>"$tmp/$name.emit.err" ||
    { printf '%-12s C+BLAS emission failed\n' "$name" >&2; continue; }
  "$UPLIFT" run "$f" --sizes "$sizes" --native --time-runs "$RUNS" --timeout 600 \
    --native-cflags "$OFLAGS" >"$tmp/$name.orig.time" 2>"$tmp/$name.orig.err"
  "$UPLIFT" run "$f" --sizes "$sizes" --native --time-runs "$RUNS" --timeout 600 \
    --native-source "$tmp/$name.cblas.c" --native-cflags "$OFLAGS $BLAS" >"$tmp/$name.cblas.time" 2>"$tmp/$name.cblas.err"
  printf '%-12s %s original %s s, C+BLAS %s s\n' "$name" "$sizes" \
    "$(sed -n 's/^median: //p' "$tmp/$name.orig.time")" "$(sed -n 's/^median: //p' "$tmp/$name.cblas.time")" >&2
done
python3 - "$tmp" "$out" "$OPENBLAS_NUM_THREADS" "$RUNS" <<'PY'
import json, math, os, sys, statistics
tmp, out, threads, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def median_of(path):
    try:
        for line in open(path):
            if line.startswith('median: '): return float(line.split()[1])
    except OSError: pass
    return None
rows = []
def recheck(name, d):
    # wall time of `uplift verify` on the saved report, if all proved
    try:
        v0, v1 = map(float, open(os.path.join(tmp, f'{name}.{d}.vtime')).read().split())
        ok = json.load(open(os.path.join(tmp, f'{name}.{d}.vjson'))).get('proved')
    except Exception: return None
    return round(v1 - v0, 2) if ok else 'not proved'
for fn in sorted(os.listdir(tmp)):
    if not fn.endswith('.json'): continue
    name, d, _ = fn.rsplit('.', 2)
    rc = int(open(os.path.join(tmp, f'{name}.{d}.rc')).read())
    t0, t1 = map(float, open(os.path.join(tmp, f'{name}.{d}.time')).read().split())
    try: rep = json.load(open(os.path.join(tmp, fn)))
    except Exception: rep = {}
    tasks = rep.get('tasks', [])
    st = lambda k: sum(t.get('stats', {}).get(k, 0) for t in tasks)
    err = open(os.path.join(tmp, f'{name}.{d}.err')).read().strip().splitlines()
    rows.append(dict(kernel=name, dialect=d, exit=rc, raised=bool(rep.get('raised')),
        ops=sum(t.get('ops', 0) for t in tasks), tasks=len(tasks),
        enumerated=st('enumerated'), static_filtered=st('static_filtered'),
        evaluated=st('evaluated'), equivalence_filtered=st('equivalence_filtered'),
        synth_seconds=round(sum(t.get('synth_seconds', 0) for t in tasks), 3),
        verify=sorted({t.get('verify', {}).get('verdict', '-') for t in tasks}),
        verify_seconds=round(sum(t.get('verify', {}).get('seconds', 0) for t in tasks), 3),
        wall_seconds=round(t1 - t0, 2),
        recheck_seconds=recheck(name, d),
        reason=rep.get('reason') or (err[-1] if err and not rep.get('raised') else None)))
# speed of the raised C+BLAS code (hlo rows)
speed = []
for r in rows:
    if r['dialect'] != 'hlo' or not r['raised']: continue
    name = r['kernel']
    to = median_of(os.path.join(tmp, f'{name}.orig.time'))
    tb = median_of(os.path.join(tmp, f'{name}.cblas.time'))
    try: sizes = open(os.path.join(tmp, f'{name}.sizes')).read().strip()
    except OSError: sizes = ''
    r['large_sizes'] = sizes
    r['original_seconds'] = to
    r['cblas_seconds'] = tb
    r['speedup'] = round(to / tb, 2) if to and tb else None
    speed.append(dict(kernel=name, sizes=sizes, original_seconds=to, cblas_seconds=tb,
                      speedup=r['speedup']))
sp_ok = [s['speedup'] for s in speed if s['speedup']]
geo = round(math.exp(sum(math.log(x) for x in sp_ok) / len(sp_ok)), 2) if sp_ok else None
json.dump(dict(rows=rows, speed=dict(kernels=speed, geomean_speedup=geo, timed=len(sp_ok),
                                     openblas_threads=threads, runs=runs,
                                     original_flags='gcc -O3 -march=native',
                                     sizes='LARGE_DATASET')),
          open(out + '.json', 'w'), indent=1)
with open(out + '.md', 'w') as f:
    f.write('| kernel | dialect | raised | ops | enumerated | static filtered | evaluated | equiv. filtered | synth s | verify | verify s | recheck s | wall s |\n')
    f.write('|---|---|---|---|---|---|---|---|---|---|---|---|---|\n')
    for r in rows:
        f.write(f"| {r['kernel']} | {r['dialect']} | {'yes' if r['raised'] else 'no'} | {r['ops']} | {r['enumerated']} | {r['static_filtered']} | {r['evaluated']} | {r['equivalence_filtered']} | {r['synth_seconds']} | {','.join(r['verify'])} | {r['verify_seconds']} | {r['recheck_seconds'] if r['recheck_seconds'] is not None else '-'} | {r['wall_seconds']} |\n")
    for d in ('hlo', 'linalg', 'tosa'):
        rs = [r for r in rows if r['dialect'] == d]
        ok = [r for r in rs if r['raised']]
        med = round(statistics.median([r["wall_seconds"] for r in ok]), 2) if ok else 0
        f.write(f"\n{d}: {len(ok)} of {len(rs)} raised; median wall time of the raised: {med} s")
    f.write('\n')
    if any(not r['raised'] for r in rows):  # the heading only over a list
        f.write('\nNot raised, and why:\n\n')
    for r in rows:
        if not r['raised']: f.write(f"- {r['kernel']} ({r['dialect']}): {r['reason']}\n")
    f.write(f"\n## Speed of the raised C+BLAS code\n\nLARGE_DATASET sizes, median of {runs} runs each, "
            f"original compiled with gcc -O3 -march=native, raised program emitted with "
            f"`uplift raise --emit c` and linked with OpenBLAS (OPENBLAS_NUM_THREADS={threads}).\n\n")
    f.write('| kernel | sizes | original s | C+BLAS s | speedup |\n|---|---|---|---|---|\n')
    fmt = lambda x: '-' if x is None else f'{x:.4f}'
    for s in speed:
        sp = '-' if s['speedup'] is None else f"{s['speedup']}x"
        f.write(f"| {s['kernel']} | {s['sizes']} | {fmt(s['original_seconds'])} | {fmt(s['cblas_seconds'])} | {sp} |\n")
    f.write(f"\nGeometric-mean speedup over {len(sp_ok)} kernels: {geo}x\n")
    f.write('\n![synthesis time per kernel](synthesis.svg)\n')
# chart: synthesis seconds per kernel (hlo) on a log scale, beside the
# mlirSynth paper's published times.  Of its Table II we have only the two
# figures the paper states in its text (3mm 0.14 s, the fastest; syr2k
# 2,439 s, the slowest); the others were not found in the public material we
# searched, so they are not drawn (no invented numbers).
import math
paper = {'3mm': 0.14, 'syr2k': 2439.0}
hlo = [r for r in rows if r['dialect'] == 'hlo']
W, bar, left, top = 760, 30, 110, 70
H = top + bar * len(hlo) + 50
lo, hi = 1e-3, 1e4
def xs(v):
    v = min(max(v, lo), hi)
    return left + (W - left - 120) * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       '<text x="10" y="20" font-size="14">Synthesis time per kernel (hlo), seconds, log scale</text>',
       '<text x="10" y="38"><tspan fill="#4a7">uplift (this run, one configuration)</tspan>  <tspan fill="#c63">mlirSynth, PACT 2023 (published; only 3mm and syr2k found)</tspan></text>']
for e in range(-3, 5):
    x = xs(10.0 ** e)
    svg.append(f'<line x1="{x:.1f}" y1="{top - 8}" x2="{x:.1f}" y2="{H - 40}" stroke="#ddd"/>')
    svg.append(f'<text x="{x:.1f}" y="{H - 25}" text-anchor="middle">1e{e}</text>')
for i, r in enumerate(hlo):
    y = top + i * bar
    svg.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end">{r["kernel"]}</text>')
    v = max(r['synth_seconds'], lo)
    col = '#4a7' if r['raised'] else '#bbb'
    svg.append(f'<rect x="{left}" y="{y + 2}" width="{xs(v) - left:.1f}" height="12" fill="{col}"/>')
    svg.append(f'<text x="{xs(v) + 4:.1f}" y="{y + 12}">{r["synth_seconds"]}{"" if r["raised"] else " (not raised)"}</text>')
    if r['kernel'] in paper:
        pv = paper[r['kernel']]
        svg.append(f'<rect x="{left}" y="{y + 15}" width="{xs(pv) - left:.1f}" height="10" fill="#c63"/>')
        svg.append(f'<text x="{xs(pv) + 4:.1f}" y="{y + 24}">{pv} (mlirSynth)</text>')
svg.append('</svg>')
open(os.path.join(os.path.dirname(out), 'synthesis.svg'), 'w').write('\n'.join(svg) + '\n')
PY
echo "wrote $out.md and $out.json" >&2
