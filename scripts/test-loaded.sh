#!/usr/bin/env bash
# Runs the whole test suite N times (default 5) beside K busy loops (default
# 2): the packages and go test flags of `make test` (scripts/test.sh with
# SKIP_VET=1), one run after the other. Prints every failing test with its
# package and run number, then one summary line; exits 1 if any run failed.
#
#   N=1 K=2 bash scripts/test-loaded.sh core ptysession ...   (make test-loaded N=1 K=2)
#
# The busy loops are this script's children: they are killed when it ends,
# on failure, Ctrl-C or SIGTERM, and each also stops by itself once this
# script is gone (even after a SIGKILL). A run in progress is interrupted
# with the suite's process group. Each run's output goes to the terminal and
# to a log under a temporary directory, kept (and named) when a run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${N:-5}
loops=${K:-2}
case "$runs$loops" in *[!0-9]*) echo "test-loaded: N and K must be whole numbers (N=$runs K=$loops)" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "test-loaded: N must be at least 1" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: N=5 K=2 $0 MODULE..." >&2; exit 2; }

logdir=$(mktemp -d "${TMPDIR:-/tmp}/ptyseam-test-loaded.XXXXXX")
busy=()
suite=""

# busy spins on one CPU until its parent is gone: it checks every hundred
# thousand iterations (a tenth of a second on a quiet machine).
busy() {
  local parent=$1 i
  while kill -0 "$parent" 2>/dev/null; do
    for ((i = 0; i < 100000; i++)); do :; done
  done
}

stop_suite() {
  [ -n "$suite" ] || return 0
  # The suite runs in its own session: its process group id is its pid.
  kill -INT -- "-$suite" 2>/dev/null
  for _ in $(seq 1 100); do
    kill -0 -- "-$suite" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$suite" 2>/dev/null
  wait "$suite" 2>/dev/null
  suite=""
}

cleanup() {
  stop_suite
  if [ ${#busy[@]} -gt 0 ]; then
    kill "${busy[@]}" 2>/dev/null
    wait "${busy[@]}" 2>/dev/null
    busy=()
  fi
}
trap cleanup EXIT
trap 'echo "test-loaded: interrupted" >&2; exit 130' INT
trap 'echo "test-loaded: terminated" >&2; exit 143' TERM

for ((k = 0; k < loops; k++)); do
  busy $$ &
  busy+=($!)
done

# failures LOG RUN prints "run R: PACKAGE TEST (TIME)" for every failing
# test in a go test log, and a line for a package that failed outside any
# test (build, panic, timeout, TestMain's leak checks) with its first clue.
# go test prints each package's output in one piece, its tests' "--- FAIL"
# lines before the package's "FAIL<TAB>path" line. A test's name is listed
# once per package (a helper process's output repeats it, indented).
failures() {
  awk -v run="$2" '
    function reset() { np = 0; clue = ""; running = 0; split("", seen) }
    function add(name, what) { if (!(name in seen)) { seen[name] = 1; pending[++np] = name " " what } }
    BEGIN { reset() }
    /^[[:space:]]*--- FAIL: / { add($3, $4); next }
    # A timeout names the tests still running ("running tests:" then one
    # indented "TestName (duration)" line each).
    /^[[:space:]]*running tests:/ { running = 1; next }
    running && /^[[:space:]]+[^[:space:]]+ \([^)]*\)$/ { add($1, "(still running at the timeout, after " substr($2, 2, length($2) - 2) ")"); next }
    running { running = 0 }
    clue == "" && !/^FAIL/ && (/^panic: / || /race detected/ || /goleak/ || /left processes behind/ || /build failed/ || /setup failed/) {
      clue = $0; sub(/^[[:space:]]+/, "", clue)
    }
    /^FAIL[[:space:]]+[^[:space:]]/ {
      pkg = $2
      if ($3 == "[build" || $3 == "[setup") clue = substr($3, 2) " failed"
      if (np == 0) printf "run %s: %s (failed outside a test: %s)\n", run, pkg, (clue == "" ? "see the log" : clue)
      for (j = 1; j <= np; j++) printf "run %s: %s %s\n", run, pkg, pending[j]
      if (np > 0 && clue ~ /^panic: |goleak|left processes behind/) printf "run %s: %s (also: %s)\n", run, pkg, clue
      reset(); next
    }
    /^ok[[:space:]]/ { reset() }
  ' "$1"
}

green=0
red=0
all=()
start=$SECONDS
echo "test-loaded: $runs run(s) of the suite beside $loops busy loop(s); logs in $logdir"
for ((r = 1; r <= runs; r++)); do
  log="$logdir/run-$r.log"
  t0=$SECONDS
  echo "test-loaded: run $r/$runs starts (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  # Its own session, so that Ctrl-C reaches this script alone and the
  # whole run (go, the test binaries) can be stopped as one group.
  setsid bash -c 'set -o pipefail; SKIP_VET=1 bash scripts/test.sh "$@" 2>&1 | tee "$0"' "$log" "$@" </dev/null &
  suite=$!
  wait "$suite"
  rc=$?
  suite=""
  mapfile -t found < <(failures "$log" "$r")
  if [ "$rc" -eq 0 ] && [ ${#found[@]} -eq 0 ]; then
    green=$((green + 1))
    echo "test-loaded: run $r green in $((SECONDS - t0)) s"
  else
    red=$((red + 1))
    [ ${#found[@]} -gt 0 ] || found=("run $r: (exit status $rc, no failing package found; see $log)")
    all+=("${found[@]}")
    echo "test-loaded: run $r red in $((SECONDS - t0)) s:"
    printf '  %s\n' "${found[@]}"
  fi
done

echo
if [ ${#all[@]} -gt 0 ]; then
  echo "test-loaded: failing tests (run: package test):"
  printf '  %s\n' "${all[@]}"
fi
echo "test-loaded: $green of $runs run(s) green, $red red, ${#all[@]} failure(s), beside $loops busy loop(s), in $((SECONDS - start)) s"
if [ "$red" -gt 0 ]; then
  echo "test-loaded: logs kept in $logdir"
  exit 1
fi
rm -rf "$logdir"
