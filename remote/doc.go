// Package remote carries ptyseam's backend seam over one byte stream, so
// that sessions running on another machine (an ssh host, a container) keep
// every guarantee of a local session: settling on the prompt marker and on
// the kernel's view of a stdin read, whole-tree close including setsid
// escapees, and no output lost at exit.
//
// Two ends speak the protocol (docs/remote.md):
//
//   - the agent ([Serve], run by `ptyseam agent` on the far side) serves the
//     local PTY backend (core/localpty) over its stdin and stdout, and
//     closes every session it started when the stream ends;
//   - the host ([Connect], [Conn], [Backend]) speaks to an agent over any
//     io.ReadWriteCloser: a local pipe, an ssh exec channel (package
//     remote/sshagent), a container's exec stream.
//
// A backend that starts the agent in a place of its own (a container, a
// pod) wraps each agent session in a [Session], which adds the backend's
// teardown and its reading of a lost stream, and resolves its requests
// with [TargetDefaults] and [CheckAllowed].
//
// The stream is multiplexed with github.com/hashicorp/yamux after a one-line
// hello each way that negotiates the protocol version. Every call is one
// yamux stream that starts with a length-prefixed JSON frame; a session's
// output is the raw bytes of the stream that spawned it.
//
// A dropped stream ends every session on it: their status says "connection
// lost" and their errors match [ErrConnectionLost].
package remote
