// Package sshagent runs ptyseam's remote agent on ssh hosts: it finds the
// agent already installed there or uploads it (once, to a per-user cache,
// checked by SHA-256), starts it on an exec channel of the ssh backend's
// shared connection, and serves sessions on it as a core backend.
//
// What the far side needs: a POSIX shell, uname, mkdir, head, chmod, mv,
// sha256sum (coreutils or busybox), a writable cache directory
// ($XDG_CACHE_HOME/ptyseam or ~/.cache/ptyseam), and for the sessions
// themselves what the local PTY backend needs (Linux, /proc, bash for the
// shell type). See docs/remote.md.
package sshagent
