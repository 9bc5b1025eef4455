#!/usr/bin/env bash
# Runs the Windows test binaries under Wine (Debian's wine64): each package in WINE_PKGS is
# built with GOOS=windows go test -c and run by wine64 in a private, throw-away Wine prefix.
# What runs there and what does not is listed in docs/jobs.md and docs/windows.md. Prints one
# closing line: binaries passed and failed.
# ./core/conpty is the ConPTY backend: Wine 8.0's pseudo console carries output and input, so
# its tests run programs that talk to CONIN$/CONOUT$ (the test binary as a helper). Three things
# Wine 8.0 cannot do, each skipped or answered as such there (checked by the tests): the
# standard handles of a program on a pseudo console stay null (cmd.exe /c echo hi prints
# nothing through it), ResizePseudoConsole fails with E_NOTIMPL ("Not implemented"; the
# backend says UNSUPPORTED), and a ^C written to the console reaches no program as CTRL_C_EVENT.
set -uo pipefail
cd "$(dirname "$0")/.."
pkgs=${WINE_PKGS:-./internal/procfs ./consumers/jobs/pipebackend ./consumers/jobs ./core/conpty}
wine=$(command -v wine64 || true)
[ -n "$wine" ] || [ ! -x /usr/lib/wine/wine64 ] || wine=/usr/lib/wine/wine64
if [ -z "$wine" ]; then
  echo "wine-test: wine64 is missing (apt-get install wine64, or make deps)" >&2
  exit 1
fi
wineserver=$(dirname "$wine")/wineserver
work=$(mktemp -d)
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
cleanup() {
  "$wineserver" -k 2>/dev/null
  "$wineserver" -w 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# A new prefix, then the DLL the Go runtime needs and Wine 8.0 lacks.
"$wine" wineboot -i >/dev/null 2>&1 || { echo "wine-test: wineboot failed" >&2; exit 1; }
python3 scripts/wine-bcryptprimitives.py "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" || exit 1
passed=0
failed=0
for p in $pkgs; do
  exe="$work/$(echo "$p" | tr -c 'a-zA-Z0-9\n' '_').test.exe"
  if ! GOOS=windows GOARCH=amd64 go test -c -o "$exe" "$p"; then
    echo "FAIL	$p (windows build)"
    failed=$((failed + 1))
    continue
  fi
  # A test binary that hangs is ended by its own -test.timeout; timeout ends a hung Wine.
  if (cd "$work" && timeout 600 "$wine" "$exe" -test.v -test.timeout 300s) >"$work/log" 2>&1; then
    grep -E '^(--- (PASS|SKIP))' "$work/log"
    echo "ok  	$p (windows/amd64 under wine)"
    passed=$((passed + 1))
  else
    cat "$work/log"
    echo "FAIL	$p (windows/amd64 under wine)"
    failed=$((failed + 1))
  fi
done
echo "windows test binaries under wine: $passed passed, $failed failed"
[ "$failed" = 0 ]
