package core

import (
	"context"
	"path"
)

// Bounds of [Service.TypeSecret].
const (
	// MaxSecretBytes bounds one secret.
	MaxSecretBytes = 4096
	// MaxSessionSecrets bounds the secrets one session hides.
	MaxSessionSecrets = 8
)

// TypeSecret types secret, then Enter, into owner's session id, which
// must be reading a secret ([Service.SecretPrompt]), and from
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
	if err := sess.secretPrompt(op); err != nil {
		return err
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

// SecretPrompt returns nil when owner's session id reads a secret now: a
// hidden line (echo off in canonical mode, as getpass, sudo and ssh read
// a password), or keys read one by one by a password dialog that masks
// them ([TerminalReader.PasswordDialog]: pinentry, which gpg-agent
// starts on the terminal) while it shows the cursor in its entry field.
// Otherwise it fails with CodeInvalidArgument saying what the terminal
// does instead, or CodeUnsupported when the backend cannot tell.
func (s *Service) SecretPrompt(owner *Owner, id SessionID) error {
	sess, err := s.lookup("secret", owner, id)
	if err != nil {
		return err
	}
	return sess.secretPrompt("secret")
}

func (sess *session) secretPrompt(op string) error {
	switch sess.echoMode() {
	case EchoHidden:
		return nil
	case EchoUnknown:
		return newError(CodeUnsupported, op, sess.id, "this terminal cannot tell whether it hides what is typed")
	case EchoByProgram:
		r, err := sess.probe.DescribeReader()
		switch {
		case err != nil || !r.PasswordDialog():
			return newError(CodeInvalidArgument, op, sess.id, "the program reads each key itself and shows what it chooses "+
				"(an editor, a full-screen program, a line editor): it is not reading a secret at a hidden prompt")
		case sess.cursorHidden():
			return newError(CodeInvalidArgument, op, sess.id, "the password dialog on the terminal asks a question "+
				"with buttons, not for a secret (it shows no cursor): answer it with its keys (Tab, Enter)")
		}
		return nil
	}
	return newError(CodeInvalidArgument, op, sess.id, "the terminal shows what is typed (echo is on): it is not reading a secret")
}

// passwordDialogs are the programs that read a secret from a terminal key
// by key and mask it: pinentry's terminal dialogs ("pinentry" is the
// name gpg-agent runs, a link to one of them).
var passwordDialogs = map[string]bool{"pinentry": true, "pinentry-curses": true, "pinentry-tty": true}

// cursorHidden reports whether the program on the terminal hid the cursor.
func (sess *session) cursorHidden() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.buf.CursorHidden()
}

// PasswordDialog reports whether a program that reads the terminal is a
// password dialog (pinentry's curses or tty dialog), by its executable's
// name, or its argv[0]'s when the executable is unknown. Like the rest of
// TerminalReader it names programs, it proves nothing of them.
func (r TerminalReader) PasswordDialog() bool {
	for _, p := range r.Programs {
		name := p.Exe
		if name == "" && len(p.Argv) > 0 {
			name = p.Argv[0]
		}
		if p.Reading && passwordDialogs[path.Base(name)] {
			return true
		}
	}
	return false
}
