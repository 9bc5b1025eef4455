#!/usr/bin/env bash
# Installs what the tests and benchmarks need when it is missing: Debian
# packages through apt-get when run as root (otherwise it says what to
# install), and the npm packages of the real MCP client used by the
# end-to-end test.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v bash    >/dev/null || need+=(bash)
command -v python3 >/dev/null || need+=(python3)
command -v gdb     >/dev/null || need+=(gdb)
command -v sqlite3 >/dev/null || need+=(sqlite3)
command -v gcc     >/dev/null || need+=(gcc libc6-dev)
command -v g++     >/dev/null || need+=(g++)
[ -x /usr/sbin/sshd ]         || need+=(openssh-server)
command -v ssh     >/dev/null || need+=(openssh-client)
command -v ssh-keygen >/dev/null || need+=(openssh-client)
command -v vi      >/dev/null || need+=(vim-tiny)
command -v less    >/dev/null || need+=(less)
# The everyday tasks of the real MCP client's test (cmd/ptyseam).
command -v git     >/dev/null || need+=(git)
command -v curl    >/dev/null || need+=(curl)
# gpg and its pinentry dialog for the secret tests (cmd/ptyseam).
command -v gpg     >/dev/null || need+=(gnupg)
[ -x /usr/bin/pinentry-curses ] || need+=(pinentry-curses)
# The tmux peer of the settle benchmark (make bench).
command -v tmux    >/dev/null || need+=(tmux)
command -v ps      >/dev/null || need+=(procps)
command -v node    >/dev/null || need+=(nodejs)
command -v npm     >/dev/null || need+=(npm)
# Headless Chromium for the watch page's browser tests (chromedp).
[ -x /usr/bin/chromium ] || command -v chromium >/dev/null || need+=(chromium)
# The docker backend's tests start their own dockerd (consumers/docker/dockertest);
# nothing is started here.
[ -x /usr/sbin/dockerd ]      || need+=(docker.io)
# The k8s backend's tests start their own one-node cluster (consumers/k8s/k8stest):
# etcd, containerd and runc from Debian, pods made from busybox-static and bash-static.
[ -x /usr/bin/etcd ]          || need+=(etcd-server)
[ -x /usr/bin/containerd ]    || need+=(containerd)
[ -x /usr/sbin/runc ]         || need+=(runc)
[ -x /bin/busybox ]           || need+=(busybox-static)
[ -x /bin/bash-static ]       || need+=(bash-static)
# Wine runs the Windows test binaries of the jobs layer (scripts/wine-test.sh).
command -v wine64 >/dev/null || [ -x /usr/lib/wine/wine64 ] || need+=(wine64)

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "deps: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "deps: missing ${need[*]}; install them (e.g. sudo apt-get install ${need[*]}) and rerun" >&2
    exit 1
  fi
fi

# The real MCP client for the end-to-end test (pinned by its lock file).
e2e=cmd/ptyseam/e2e
if [ -f "$e2e/package.json" ] && [ ! -d "$e2e/node_modules/@modelcontextprotocol/sdk" ]; then
  echo "deps: npm ci in $e2e"
  (cd "$e2e" && npm ci --no-audit --no-fund --loglevel=error)
fi

# The watch page's xterm.js and asciinema-player (pinned by its lock file), copied into the
# folder the binary embeds (cmd/ptyseam/web/static/vendor, not committed).
web=cmd/ptyseam/web
if [ -f "$web/package.json" ] && { [ ! -f "$web/static/vendor/xterm.js" ] || [ ! -f "$web/static/vendor/asciinema-player.min.js" ]; }; then
  echo "deps: npm ci and build in $web"
  (cd "$web" && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build)
fi

# kube-apiserver and kubelet for the k8s tests, built from the pinned release into a
# cache folder (a no-op when built; a cold build takes 10-25 minutes on two cores).
bash scripts/k8s/build.sh >/dev/null
