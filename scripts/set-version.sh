#!/usr/bin/env bash
# Sets the candidate version of every published module: VERSION, each
# module's requirements of its siblings, and the workspace's replace lines
# that point those versions at the directories. Usage:
#   bash scripts/set-version.sh v0.2.0 core ptysession ...
set -euo pipefail
cd "$(dirname "$0")/.."
new=$1; shift
old=$(head -n1 VERSION)
prefix=github.com/ptyseam/ptyseam
for m in "$@"; do
  go work edit -dropreplace="$prefix/$m@$old" -replace="$prefix/$m@$new=./$m"
  for user in "$@"; do
    if grep -q "^[[:space:]]*$prefix/$m $old\$\|^require $prefix/$m $old\$" "$user/go.mod"; then
      (cd "$user" && go mod edit -require="$prefix/$m@$new")
    fi
  done
done
echo "$new" > VERSION
echo "version: $old -> $new; run make release-check, then commit"
