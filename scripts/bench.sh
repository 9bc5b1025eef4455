#!/usr/bin/env bash
# Runs the side-by-side benchmarks once each and prints the table of ratios
# (see docs/performance.md). Knobs: PTYSEAM_BENCH_* environment variables
# (see bench/*_test.go).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run() { # package pattern [benchtime]
  local bt=${3:-1x}
  echo "== go test -bench '$2' -benchtime $bt $1" >&2
  go test -run '^$' -bench "$2" -benchtime "$bt" -timeout 30m "$1" 2>&1 | tee -a "$out" >&2
}
export PTYSEAM_BENCH_IDLE_N=${PTYSEAM_BENCH_IDLE_N:-1000}
# Settle includes BenchmarkSettleTargets (local, an agent over a pipe, over
# ssh and in a container): it starts sshd and dockerd, so it needs root.
run ./bench/ 'Ingest|Settle|Page|Idle|FloodMemory'
# Through the MCP server (built once, as a subprocess over stdio and HTTP).
run ./bench/ 'MCPOverhead|OpenLatency'
# Parsing takes milliseconds a pass: many interleaved passes, not one.
run ./consumers/gdbmi/... 'VsJSON|Versus|JSON' 2s
run ./consumers/ssh/... 'Session|Flood|Dial'
run ./remote/ 'RemoteSettle'
# The agent over a real sshd: flood throughput against the OpenSSH client.
run ./consumers/ssh/sshagent/ 'RemoteFloodThroughput'
run ./screen/... 'IngestScreen'
# What recording a session to an asciicast file costs its ingest (sessions in turn).
run ./core/record/ 'Ingest' 4x
run ./cmd/ptyseam/ 'ResultBytes|ToolListBytes'
python3 - "$out" <<'PY'
import re, sys
rows = []
for line in open(sys.argv[1]):
    m = re.match(r'^(Benchmark\S+?)(-\d+)?\s+\d+\s+(.*)$', line)
    if not m:
        continue
    name, rest = m.group(1), m.group(3)
    metrics = re.findall(r'([\d.eE+-]+) (\S+)', rest)
    rows.append((name, metrics))
print("| benchmark | metric | value |")
print("|---|---|---|")
for name, metrics in rows:
    for value, unit in metrics:
        if unit in ("ns/op", "B/op", "allocs/op"):
            continue
        print(f"| {name} | {unit} | {value} |")
PY
