// Package ssh runs ptyseam sessions on remote hosts over SSH.
//
// [Backend] is a core backend of type "ssh" built on golang.org/x/crypto/ssh.
// A spawn request carries a *[Target] in its Options: host, port, user,
// [Auth] (password, keyboard-interactive, key files, the ssh agent) and a
// [HostKeyPolicy] (strict known_hosts checking by default; trust on first
// use only when asked). Sessions to the same (host, port, user) share one
// connection with keepalives; every step that talks to the network is
// bounded by the caller's context.
//
// Each session is one SSH "session" channel with a PTY, running the login
// shell or a command. Output is the channel's stdout and stderr merged;
// Read returns io.EOF only once the output ended and the remote exit status
// (or the loss of the connection) is known. A dropped connection ends every
// session on it with an exited status whose Reason is "connection lost".
//
// Remote cleanup promises less than the local backend does: closing a
// session asks the remote side to hang up (SIGHUP to the session's process
// group, then the channel close, which makes the server close the PTY and
// hang up its foreground process group) and waits for the server to report
// the exit. Processes that left the session's process group and ignore
// SIGHUP, or that detached with setsid or nohup, may survive on the remote
// host: nothing in the SSH protocol can name or kill them.
//
// Sub-packages: sshtest is an in-process test server that gives each
// session a real local shell; sshdtest starts a private OpenSSH sshd for
// integration tests; openssh drives the OpenSSH client's login over a local
// PTY; shellrun runs commands in any ptyseam shell session with output
// framed by unique markers.
package ssh
