#!/usr/bin/env bash
# Runs the side-by-side benchmarks and prints the table (docs/performance.md):
# every metric as its median and min-max over PTYSEAM_BENCH_COUNT runs
# (default 5), then the rows bench/rows.txt lists. A listed row that no run
# reported is printed with why (the benchmark's skip or failure, the
# run's build error) and the script exits 1; so does a failed run.
# Knobs: PTYSEAM_BENCH_COUNT; PTYSEAM_BENCH_ONLY, a regexp of benchmark
# names: only the rows it matches and the benchmarks that report them;
# PTYSEAM_BENCH_STRICT=1: benchmarks that need sshd, dockerd or tmux fail
# where they cannot run instead of skipping (as under CI, which it sets);
# the sizes PTYSEAM_BENCH_* (see bench/*_test.go).
set -uo pipefail
cd "$(dirname "$0")/.."
count=${PTYSEAM_BENCH_COUNT:-5}
only=${PTYSEAM_BENCH_ONLY:-}
if [ "${PTYSEAM_BENCH_STRICT:-}" = 1 ]; then export CI=${CI:-true}; fi
export PTYSEAM_BENCH_IDLE_N=${PTYSEAM_BENCH_IDLE_N:-1000}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# The runs of bench/rows.txt and, under ONLY, the benchmarks of each
# run that have a row it matches.
runs=()
declare -A wanted
while read -r kind rest; do
  case $kind in
    run) runs+=("$rest") ;;
    Benchmark*)
      i=$((${#runs[@]} - 1))
      if [ -z "$only" ]; then wanted[$i]=all
      elif [[ $kind =~ $only ]] && [[ "|${wanted[$i]:-}|" != *"|${kind%%/*}|"* ]]; then
        wanted[$i]=${wanted[$i]:+${wanted[$i]}|}${kind%%/*}
      fi ;;
  esac
done < bench/rows.txt

for i in "${!runs[@]}"; do
  [ -n "${wanted[$i]:-}" ] || continue
  read -r pkg pat bt n <<<"${runs[$i]}"
  [ "$n" = n ] && n=$count
  [ -n "$only" ] && pat="^(${wanted[$i]})\$"
  echo "== go test -bench '$pat' -benchtime $bt -count $n $pkg" >&2
  go test -v -run '^$' -bench "$pat" -benchtime "$bt" -count "$n" -timeout 60m "$pkg" 2>&1 | tee "$logs/$i.log" >&2
  echo "${PIPESTATUS[0]} $pkg $pat" >"$logs/$i.rc"
done

PTYSEAM_BENCH_ONLY=$only python3 - bench/rows.txt "$logs" <<'PY'
import os, re, statistics, sys
rows_file, logs = sys.argv[1], sys.argv[2]
only = os.environ.get("PTYSEAM_BENCH_ONLY", "")

# rows.txt: each run's expected rows, in order.
runs, rows = [], []
for line in open(rows_file):
    f = line.split()
    if not f or f[0].startswith("#"):
        continue
    if f[0] == "run":
        runs.append(" ".join(f[1:]))
    elif f[0].startswith("Benchmark") and (not only or re.search(only, f[0])):
        rows.append((len(runs) - 1, f[0], f[1], " ".join(f[2:])))

# Each run's log (go test -v, which alone prints a skip): values of every
# (benchmark, metric), each benchmark's log lines, and its skip or failure.
values, notes, said, rcs, tails, reported = {}, {}, {}, {}, {}, set()
for i in range(len(runs)):
    path = os.path.join(logs, f"{i}.log")
    if not os.path.exists(path):
        continue
    lines = open(path).read().splitlines()
    rc, run = open(os.path.join(logs, f"{i}.rc")).read().split(maxsplit=1)
    rcs[i], runs[i] = int(rc), run.strip()
    tails[i] = " | ".join(l.strip() for l in lines[-6:])
    cur = None
    for j, line in enumerate(lines):
        m = re.match(r"^(Benchmark\S+?)(-\d+)?\s+\d+\s+(.*)$", line)
        if m:
            reported.add((i, m.group(1)))
            for v, unit in re.findall(r"([\d.eE+-]+) (\S+)", m.group(3)):
                values.setdefault((i, m.group(1), unit), []).append(float(v))
            continue
        m = re.match(r"^(\s*)--- (SKIP|FAIL|BENCH): (\S+)", line)
        if m:
            name, depth = re.sub(r"-\d+$", "", m.group(3)), len(m.group(1))
            msg = said.setdefault((i, name), [])
            for l in lines[j + 1:]:
                if len(l) - len(l.lstrip()) <= depth or l.lstrip().startswith("--- "):
                    break
                msg.append(l.strip())
            if m.group(2) != "BENCH":
                notes.setdefault((i, name), m.group(2))
            continue
        if re.match(r"^Benchmark\S+$", line):
            cur = line
        elif cur and line.startswith(" "):
            said.setdefault((i, cur), []).append(line.strip())

pkg = [r.split()[0] for r in runs]

def num(v):
    return f"{v:.4g}" if abs(v) < 1e4 else f"{v:.0f}"

def cell(i, name, unit):
    vs = values[(i, name, unit)]
    lo, hi = min(vs), max(vs)
    if (i, name, unit + "-min") in values and (i, name, unit + "-max") in values:
        lo, hi = min(values[(i, name, unit + "-min")]), max(values[(i, name, unit + "-max")])
    return num(statistics.median(vs)), f"{num(lo)}-{num(hi)}", len(vs)

print("| benchmark | metric | median | min-max | runs |")
print("|---|---|---|---|---|")
for (i, name, unit) in values:
    if unit in ("ns/op", "B/op", "allocs/op") or re.search(r"-(min|max)$", unit):
        continue
    print("| %s | %s | %s | %s | %d |" % ((name, unit) + cell(i, name, unit)))

print()
print("| row | benchmark | metric | median | min-max | runs |")
print("|---|---|---|---|---|---|")
missing = []
for i, name, unit, what in rows:
    if (i, name, unit) not in values:
        missing.append((i, name, unit, what))
        print(f"| {what} | {name} | {unit} | MISSING | | 0 |")
        continue
    print("| %s | %s | %s | %s | %s | %d |" % ((what, name, unit) + cell(i, name, unit)))

def why(i, name):
    def log(n):
        return " ".join(dict.fromkeys(said.get((i, n), [])))[:400]
    if i not in rcs:
        return "not run"
    if (i, name) in reported and (i, name) not in notes:
        return f"{name} ran without reporting this metric" + (f": {log(name)}" if log(name) else "")
    n = name
    while True:
        if (i, n) in notes:
            return f"{notes[(i, n)]}: {n}: {log(n)}"
        if "/" not in n:
            break
        n = n.rsplit("/", 1)[0]
    if rcs[i] != 0:
        return f"go test {pkg[i]} exited {rcs[i]}: {tails[i]}"
    return f"go test {pkg[i]} passed without running {name}"

failed = [runs[i] for i, rc in rcs.items() if rc != 0]
if missing:
    print(f"\n{len(missing)} of {len(rows)} rows missing:", file=sys.stderr)
    by_reason = {}
    for i, name, unit, what in missing:
        by_reason.setdefault(why(i, name), []).append(f"{name} {unit} ({what})")
    for reason, names in by_reason.items():
        print(f"  {reason}", file=sys.stderr)
        for n in names:
            print(f"    {n}", file=sys.stderr)
for r in failed:
    p, pat = r.split()
    print(f"failed: go test -bench '{pat}' {p} (its log is above)", file=sys.stderr)
sys.exit(1 if missing or failed else 0)
PY
