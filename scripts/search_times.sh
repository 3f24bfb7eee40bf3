#!/bin/sh
# search_times.sh - the search cost of every benchmark kernel in every
# dialect: runs `uplift raise --json` on benchmarks/kernels/*.c (found by
# glob) for hlo, linalg and tosa (tosa as float, as benchmarks/bench.sh
# does) and prints one line per pair: synthesis seconds (wall), the CPU
# seconds of the whole raise (user + system, steadier than wall time on a
# shared machine), candidates enumerated and evaluated, the programs found
# (a checksum of the report's programs, to compare two builds), and the
# totals.
# Usage: scripts/search_times.sh [uplift binary] [kernel files...]
set -u
UPLIFT=${1:-./uplift}
[ $# -gt 0 ] && shift
files=${*:-benchmarks/kernels/*.c}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-12s %-7s %4s %9s %7s %12s %12s %s\n' kernel dialect exit synth_s cpu_s enumerated evaluated programs
for f in $files; do
  name=$(basename "$f" .c)
  for d in hlo linalg tosa; do
    fl=""; [ "$d" = tosa ] && fl="-D DATA_TYPE_IS_FLOAT"
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" \
      "$UPLIFT" raise "$f" $fl --dialect "$d" --json --timeout 120 >"$tmp/r.json" 2>/dev/null
    rc=$?
    python3 - "$tmp/r.json" "$name" "$d" "$rc" "$tmp/cpu" <<'PY'
import json, sys, hashlib
path, name, d, rc, cpu = sys.argv[1:6]
try: cpu = sum(float(x) for x in open(cpu).read().split()[-2:])
except Exception: cpu = 0.0
try: r = json.load(open(path))
except Exception: r = {}
ts = r.get('tasks', [])
synth = sum(t.get('synth_seconds', 0) for t in ts)
st = [t.get('stats', {}) for t in ts]
en = sum(s.get('enumerated', 0) for s in st)
ev = sum(s.get('evaluated', 0) for s in st)
progs = ';'.join(str(t.get('program')) for t in ts)
h = hashlib.sha1(progs.encode()).hexdigest()[:10]
print('%-12s %-7s %4s %9.3f %7.2f %12d %12d %s' % (name, d, rc, synth, cpu, en, ev, h))
PY
  done
done | tee "$tmp/all"
awk '{s += $4; c += $5; e += $6; v += $7} END {printf "total synth %.3f s, cpu %.2f s, enumerated %d, evaluated %d\n", s, c, e, v}' "$tmp/all"
