#!/usr/bin/env bash
# Runs go vet, the darwin cross-build, the windows cross-build of the modules in WINDOWS_MODULES
# (the Makefile's WINDOWS) and every module's tests with the given go test flags, then prints one
# closing line: packages passed and failed. SKIP_VET=1 runs the tests only (make test-loaded runs
# them many times).
set -uo pipefail
cd "$(dirname "$0")/.."
flags=${TESTFLAGS:--race -count=1 -timeout 25m}
vet_pkgs=()
test_pkgs=()
for m in "$@"; do
  vet_pkgs+=("./$m/...")
  # bench holds benchmarks only: make bench runs them.
  [ "$m" = bench ] || test_pkgs+=("./$m/...")
done
if [ "${SKIP_VET:-}" != 1 ]; then
  go vet "${vet_pkgs[@]}" || exit 1
  # macOS must still build.
  GOOS=darwin GOARCH=arm64 go build "${vet_pkgs[@]}" || exit 1
  # Windows must still build.
  win_pkgs=()
  for m in ${WINDOWS_MODULES:-}; do win_pkgs+=("./$m/..."); done
  if [ "${#win_pkgs[@]}" -gt 0 ]; then
    GOOS=windows GOARCH=amd64 go build "${win_pkgs[@]}" || exit 1
  fi
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086
go test $flags "${test_pkgs[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
passed=$(grep -c '^ok ' "$log")
failed=$(grep -cE '^FAIL[[:space:]]+github.com/' "$log")
echo "packages: $passed passed, $failed failed"
exit "$rc"
