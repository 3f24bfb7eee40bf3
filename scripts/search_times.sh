#!/bin/sh
# search_times.sh - the search cost of every benchmark kernel in every
# dialect: runs `uplift raise --json` on benchmarks/kernels/*.c (found by
# glob) for hlo, linalg and tosa (tosa as float, as benchmarks/bench.sh
# does) and prints one line per pair: synthesis seconds (wall), the CPU
# seconds of the whole raise (user + system, steadier than wall time on a
# shared machine), the wall seconds and peak memory (maximum resident set
# size, MB) of the whole raise, candidates enumerated and evaluated, the programs found
# (a checksum of the report's programs, to compare two builds), and the
# totals.
# Usage: scripts/search_times.sh [uplift binary] [kernel files...]
set -u
UPLIFT=${1:-./uplift}
[ $# -gt 0 ] && shift
files=${*:-benchmarks/kernels/*.c}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-12s %-7s %4s %9s %7s %7s %6s %12s %12s %s\n' kernel dialect exit synth_s cpu_s wall_s rss_mb enumerated evaluated programs
for f in $files; do
  name=$(basename "$f" .c)
  for d in hlo linalg tosa; do
    fl=""; [ "$d" = tosa ] && fl="-D DATA_TYPE_IS_FLOAT"
    /usr/bin/time -f '%U %S %e %M' -o "$tmp/cpu" \
      "$UPLIFT" raise "$f" $fl --dialect "$d" --json --timeout 120 >"$tmp/r.json" 2>/dev/null
    rc=$?
    python3 - "$tmp/r.json" "$name" "$d" "$rc" "$tmp/cpu" <<'PY'
import json, sys, hashlib
path, name, d, rc, cpu = sys.argv[1:6]
try:
    u, s, wall, rss = (float(x) for x in open(cpu).read().split()[-4:])
    cpu, rss = u + s, rss / 1024
except Exception: cpu = wall = rss = 0.0
try: r = json.load(open(path))
except Exception: r = {}
ts = r.get('tasks', [])
synth = sum(t.get('synth_seconds', 0) for t in ts)
st = [t.get('stats', {}) for t in ts]
en = sum(s.get('enumerated', 0) for s in st)
ev = sum(s.get('evaluated', 0) for s in st)
progs = ';'.join(str(t.get('program')) for t in ts)
h = hashlib.sha1(progs.encode()).hexdigest()[:10]
print('%-12s %-7s %4s %9.3f %7.2f %7.2f %6.0f %12d %12d %s' %
      (name, d, rc, synth, cpu, wall, rss, en, ev, h))
PY
  done
done | tee "$tmp/all"
awk '{s += $4; c += $5; w += $6; if ($7 > m) m = $7; e += $8; v += $9} END {printf "total synth %.3f s, cpu %.2f s, wall %.2f s, max rss %d MB, enumerated %d, evaluated %d\n", s, c, w, m, e, v}' "$tmp/all"
