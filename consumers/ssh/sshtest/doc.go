// Package sshtest provides an in-process SSH server for tests, in the
// manner of net/http/httptest. Each session runs a real local program (a
// shell by default) on a real PTY, as the user running the test. The server
// offers password, keyboard-interactive (several rounds, several questions)
// and public-key authentication as configured, an optional banner, and
// DropConnections to simulate a network failure.
//
// Like OpenSSH, it delivers "signal" requests to the session's own process
// group (the shell's, not a foreground job's), and hangs up the program when
// the client closes the channel. It is a test fixture: it serves loopback
// only, and ignores the terminal modes of PTY requests.
package sshtest
