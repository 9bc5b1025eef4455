package core

import "context"

// Bounds of [Service.TypeSecret].
const (
	// MaxSecretBytes bounds one secret.
	MaxSecretBytes = 4096
	// MaxSessionSecrets bounds the secrets one session hides.
	MaxSessionSecrets = 8
)

// TypeSecret types secret, then Enter, into owner's session id, which
// must be reading a hidden line (echo off: a password prompt), and from
// then on hides the secret in everything the session shows: wherever its
// program prints the secret, the scrollback, the screen, every tap (a
// recording, a watcher) and every result get [SecretMask] instead. Like
// [Service.Write], it does not settle. The session keeps the secret in
// memory to find it, until its program's output ends.
//
// Only the secret's literal bytes are hidden: a program that prints it
// transformed (reversed, encoded, one character a line) shows it.
func (s *Service) TypeSecret(ctx context.Context, owner *Owner, id SessionID, secret []byte) error {
	const op = "type_secret"
	sess, err := s.lookup(op, owner, id)
	if err != nil {
		return err
	}
	if len(secret) == 0 || len(secret) > MaxSecretBytes || len(secret)+len(sess.enter) > s.opts.MaxSendBytes {
		return newError(CodeInvalidArgument, op, id, "the secret must be 1 to "+itoa(min(MaxSecretBytes, s.opts.MaxSendBytes-len(sess.enter)))+" bytes")
	}
	if sess.echoMode() != EchoHidden {
		return newError(CodeInvalidArgument, op, id, "the terminal shows what is typed (echo is on): it is not reading a secret")
	}
	sess.mu.Lock()
	if err := sess.usableLocked(op); err != nil {
		sess.mu.Unlock()
		return err
	}
	if sess.send != nil {
		sess.mu.Unlock()
		return newError(CodeSendActive, op, id, "a send is live on this session")
	}
	if _, err := sess.humanGateLocked(op, false); err != nil {
		sess.mu.Unlock()
		return err
	}
	if sess.redact == nil {
		sess.redact = &redactor{}
	}
	if len(sess.redact.secrets) >= MaxSessionSecrets {
		sess.mu.Unlock()
		return newError(CodeResourceLimit, op, id, "this session hides "+itoa(MaxSessionSecrets)+" secrets already: open a new session for more")
	}
	sess.redact.secrets = append(sess.redact.secrets, append([]byte(nil), secret...))
	data := append(append(make([]byte, 0, len(secret)+len(sess.enter)), secret...), sess.enter...)
	defer clear(data)
	sess.noteInputLocked(data, false, false)
	sess.emitLocked(sess.inputEvent(data, EchoHidden, ""))
	sess.mu.Unlock()
	_, err = sess.be.Write(ctx, data)
	sess.wrote()
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(op, id, ctx.Err())
		}
		return backendError(op, id, err)
	}
	return nil
}
