#!/bin/sh
# Run the libFuzzer harnesses given as arguments (build-fuzz/fuzz/fuzz_NAME)
# and fail on any finding.  For each harness: first every regression file
# of tests/fuzz/regress/NAME/ once (earlier findings, each fixed), then
# fuzzing for FUZZ_SECONDS seconds (default 60) from the seed corpora and
# the dictionary below, in one process, with a 10 s per-input timeout and
# a 2 GB memory limit.  The working corpus grows in build-fuzz/corpus/NAME;
# findings (crash-*, leak-*, timeout-*, oom-*) land in build-fuzz/findings/
# NAME/ and fail the run: turn each into a regression file and a fix.
# FUZZ_SMOKE=1 (CI) seeds from every tenth seed file only, so that loading
# stays short.  The last line per harness
# reports executions, coverage (cov: edges, ft: features) and corpus size.
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-60}
status=0
summary=""
for bin in "$@"; do
  name=${bin##*/fuzz_}
  case "$name" in *.d) continue ;; esac
  case "$name" in
    frontend|frontend_nopp) seeds="benchmarks/kernels tests/kernels tests/bad"; dict=c.dict ;;
    dialect) seeds="dialects tests/dialects/bad tests/dialects/extra"; dict=dialect.dict ;;
    tprog|eval) seeds="tests/fuzz/seeds/tprog"; dict=tprog.dict ;;
    *) echo "fuzz: no seeds for harness $name"; exit 1 ;;
  esac
  work=build-fuzz/corpus/$name finds=build-fuzz/findings/$name log=build-fuzz/fuzz-$name.log
  mkdir -p "$work" "$finds"
  # the seed files (every tenth one for a smoke), copied into one folder
  every=1; [ "${FUZZ_SMOKE:-0}" = 1 ] && every=10
  sub=build-fuzz/seeds/$name
  rm -rf "$sub" && mkdir -p "$sub"
  # shellcheck disable=SC2086
  find $seeds -type f | sort | awk -v e="$every" 'NR % e == 1 || e == 1' | while read -r f; do
    cp "$f" "$sub/$(echo "$f" | tr / _)"; done
  seeds=$sub
  reg=tests/fuzz/regress/$name
  if [ -d "$reg" ] && [ -n "$(ls -A "$reg")" ]; then
    if ! "$bin" -close_fd_mask=3 "$reg"/* </dev/null >"$log.regress" 2>&1; then
      echo "fuzz $name: a regression file fails again:"; tail -n 30 "$log.regress"
      status=1; continue
    fi
  fi
  # shellcheck disable=SC2086
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
    -dict="tests/fuzz/$dict" -artifact_prefix="$finds/" -print_final_stats=1 \
    "$work" $seeds </dev/null >"$log" 2>&1
  rc=$?
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  execs=$(grep 'stat::number_of_executed_units' "$log" | awk '{print $2}')
  line="fuzz $name: ${execs:-?} executions in ${secs}s; $(echo "$last" | sed 's/.*\(cov: \)/\1/')"
  summary="$summary$line
"
  if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$finds")" ]; then
    echo "fuzz $name: FINDING (exit $rc; log $log):"
    grep -E -A25 'ERROR|runtime error|round trip|SUMMARY' "$log" | head -n 40
    ls "$finds"
    status=1
  fi
done
printf '%s' "$summary"
[ "$status" = 0 ] && echo "fuzz: no finding" || echo "fuzz: FAILED"
exit $status
