package core

import "github.com/ptyseam/ptyseam/core/scrollback"

// Cursor is an incremental read position over a session's scrollback (see
// scrollback.Cursor). The ptysession facade keeps one per session for its
// tails, reading pages through [Terminals.Read].
type Cursor = scrollback.Cursor
