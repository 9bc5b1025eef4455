// Package internal is the root of the workspace's shared mechanisms, one
// home each, for every ptyseam module (Go lets any package below
// github.com/ptyseam/ptyseam import them, across modules): procfs (the
// Linux /proc scanners), shellquote (POSIX shell quoting), runecut (cuts
// at UTF-8 boundaries), pattern (the bound of a caller's regular
// expression), relay (a backend session's remote stream: its output
// pumped into the session, its input written with a context) and
// threadrepl (a test program's body, shared by the testharness children
// and the local backend's tests). It is published with the other modules
// and is not for use outside ptyseam.
package internal
