// Package core is the owner-scoped pseudo-terminal seam of ptyseam.
//
// A [Service] mints opaque session ids, runs sessions on named backends,
// authorizes every call against the exact [Owner] that spawned the session,
// allows one live send per session, settles each send with an explained
// [WaitReason], keeps bounded line scrollback with absolute line numbers,
// signals the terminal's foreground process group, and closes sessions
// idempotently, returning only after every process a session started is gone.
//
// The package holds no terminal mechanics: it imports no PTY library.
// Backends (see [Backend]) own processes and terminals; the default one lives
// in the sub-package core/localpty. Consumers own framing and presentation.
package core
