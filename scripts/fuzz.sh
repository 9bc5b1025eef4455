#!/usr/bin/env bash
# Runs every fuzz target in the workspace for a short time each.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-10s}
for mod in internal core ptysession testharness consumers/gdbmi consumers/ssh consumers/jobs screen remote cmd/ptyseam hardening; do
  for pkg in $(go list ./$mod/...); do
    dir=$(go list -f '{{.Dir}}' "$pkg")
    for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/func //' | sort -u); do
      echo "== $pkg $f ($t)"
      go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" "$pkg"
    done
  done
done
