package core

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// SessionID is an opaque, service-minted session identifier. Ids carry 128
// random bits; they are never counters and never supplied by callers.
type SessionID string

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newSessionID mints a fresh id of 128 random bits.
func newSessionID() SessionID {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms.
	return SessionID("pty_" + strings.ToLower(idEncoding.EncodeToString(b[:])))
}
