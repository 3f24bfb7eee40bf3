#!/bin/sh
# bench.sh - the benchmark table: every kernel of benchmarks/kernels (found
# by glob) raised to every shipped dialect with one configuration; records
# raised or not, ops, the Table II statistics, synthesis and verification
# time; writes benchmarks/results.json and benchmarks/results.md.
# "verify s" sums the seconds of each task's final check inside the raise
# (the JSON report's verify.seconds); "recheck s" is the wall time of
# `uplift verify` re-checking the saved report from scratch (parse, analysis,
# every task at bound 3, real mode).
# (Timing the raised C+BLAS code against the original is issue 7: not yet.)
set -u
UPLIFT=${UPLIFT:-./uplift}
out=benchmarks/results
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in benchmarks/kernels/*.c; do
  name=$(basename "$f" .c)
  for d in hlo linalg tosa; do
    start=$(date +%s.%N)
    # tosa (MLIR 16) has no f64: the kernels are raised as float there
    fl=""; [ "$d" = tosa ] && fl="-D DATA_TYPE_IS_FLOAT"
    "$UPLIFT" raise "$f" $fl --dialect "$d" --json --timeout 60 >"$tmp/$name.$d.json" 2>"$tmp/$name.$d.err"
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
python3 - "$tmp" "$out" <<'PY'
import json, os, sys, statistics
tmp, out = sys.argv[1], sys.argv[2]
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
json.dump(rows, open(out + '.json', 'w'), indent=1)
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
    f.write('\n\nNot raised, and why:\n\n')
    for r in rows:
        if not r['raised']: f.write(f"- {r['kernel']} ({r['dialect']}): {r['reason']}\n")
PY
echo "wrote $out.md and $out.json" >&2
