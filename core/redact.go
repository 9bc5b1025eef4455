package core

import (
	"bytes"
	"time"
)

// SecretMask replaces a secret typed with [Service.TypeSecret] wherever
// the session's program prints it.
const SecretMask = "[secret]"

// redactHold bounds how long output that may begin a secret is held
// back, waiting for the rest: output that ends in a secret's first bytes
// reaches the scrollback at most this late.
const redactHold = 100 * time.Millisecond

// redactor hides a session's secrets in its output. It holds back the
// end of the output while it may be the start of a secret, so that a
// secret split across reads is still found whole. Every field is guarded
// by sess.mu.
type redactor struct {
	secrets [][]byte
	held    []byte      // raw output not yet taken in: a proper prefix of a secret
	flush   *time.Timer // takes held in after redactHold
}

// filter returns what p (after the held output) shows with every secret
// masked, minus a new held tail. The result does not alias p.
func (r *redactor) filter(p []byte) []byte { return r.mask(p, false) }

// takeHeld returns the held output, masked, and forgets it: no more
// output comes soon to complete a longer secret.
func (r *redactor) takeHeld() []byte {
	if len(r.held) == 0 {
		return nil
	}
	return r.mask(nil, true)
}

// mask masks the held output and p; unless final, it holds back a new
// tail that may begin a secret.
func (r *redactor) mask(p []byte, final bool) []byte {
	data := append(r.held[:len(r.held):len(r.held)], p...)
	out := make([]byte, 0, len(data))
	i := 0
	for {
		at, n := -1, 0
		for _, s := range r.secrets {
			j := bytes.Index(data[i:], s)
			if j >= 0 && (at < 0 || j < at || j == at && len(s) > n) {
				at, n = j, len(s)
			}
		}
		if at < 0 || !final && r.mayGrow(data[i+at:], n) {
			// No secret, or one that a longer secret may yet complete
			// (the held tail then starts with it).
			break
		}
		out = append(out, data[i:i+at]...)
		out = append(out, SecretMask...)
		i += at + n
	}
	rest := data[i:]
	h := 0
	if !final {
		h = r.heldTail(rest)
	}
	out = append(out, rest[:len(rest)-h]...)
	r.held = append([]byte(nil), rest[len(rest)-h:]...)
	return out
}

// mayGrow reports whether b, which starts with a secret of n bytes, is a
// proper prefix of a longer secret.
func (r *redactor) mayGrow(b []byte, n int) bool {
	for _, s := range r.secrets {
		if len(s) > n && len(b) < len(s) && bytes.HasPrefix(s, b) {
			return true
		}
	}
	return false
}

// heldTail is the length of the longest end of b that is a proper prefix
// of a secret.
func (r *redactor) heldTail(b []byte) int {
	best := 0
	for _, s := range r.secrets {
		from := max(len(b)-(len(s)-1), 0)
		for j := from; j < len(b) && len(b)-j > best; j++ {
			if b[j] == s[0] && bytes.HasPrefix(s, b[j:]) {
				best = len(b) - j
				break
			}
		}
	}
	return best
}

// wipe zeroes and forgets the secrets and the held output.
func (r *redactor) wipe() {
	for _, s := range r.secrets {
		clear(s)
	}
	clear(r.held)
	r.secrets, r.held = nil, nil
	if r.flush != nil {
		r.flush.Stop()
	}
}

// endRedaction takes in the held output once the program's output ended,
// and wipes the secrets: no output is left to hide them in.
func (sess *session) endRedaction() {
	sess.mu.Lock()
	r := sess.redact
	if r == nil {
		sess.mu.Unlock()
		return
	}
	sess.ingested += uint64(len(r.held)) // raw bytes
	p := r.takeHeld()
	r.wipe()
	op := sess.takeInLocked(p)
	sess.mu.Unlock()
	sess.tookIn(op)
}
