package openssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/promptmark"
)

// Terminals is what Login needs from the service; *core.Service has it.
type Terminals interface {
	shellrun.Terminals
	Spawn(ctx context.Context, owner *core.Owner, req core.SpawnRequest) (core.SpawnResult, error)
	Close(ctx context.Context, owner *core.Owner, id core.SessionID, reason string) (bool, error)
}

// PromptKind classifies a question that needs a secret.
type PromptKind string

// Prompt kinds.
const (
	PromptPassword            PromptKind = "password"
	PromptPassphrase          PromptKind = "passphrase"
	PromptKeyboardInteractive PromptKind = "keyboard-interactive"
)

// Prompt is a question the client asked.
type Prompt struct {
	Kind PromptKind
	// Text is the prompt as shown ("alice@host's password: ").
	Text string
	// KeyFile names the key of a passphrase prompt.
	KeyFile string
}

// HostKeyQuestion is the client's question about an unknown host key.
type HostKeyQuestion struct {
	Host        string
	KeyType     string // "ED25519"
	Fingerprint string // "SHA256:..."
	Text        string // the question as shown
}

// Options configure Login.
type Options struct {
	// Host, Port (22 when zero) and User name the destination.
	Host string
	Port int
	User string
	// SSH is the client binary ("ssh" when empty).
	SSH string
	// Args are extra client arguments put before the destination.
	Args []string
	// KnownHostsFile, when set, is passed as -o UserKnownHostsFile=.
	KnownHostsFile string
	// HostKey answers the unknown-host question. Nil answers no.
	HostKey func(ctx context.Context, q HostKeyQuestion) (bool, error)
	// Secrets answers password, passphrase and keyboard-interactive
	// prompts. Nil fails the login at the first prompt.
	Secrets func(ctx context.Context, p Prompt) (string, error)
	// Size is the terminal size (core.DefaultSize when zero).
	Size core.Size
	// Quiet is the output silence after which a line ending in ": " is
	// taken for a keyboard-interactive question, and a shell is assumed to
	// have started (400ms when zero).
	Quiet time.Duration
	// KeepPrompt leaves the remote shell's prompt alone instead of
	// installing the OSC 133 prompt marker.
	KeepPrompt bool
	// Name names the session (core.SpawnRequest.Name: unique among the
	// owner's running sessions), so that a facade addresses it by name
	// (ptysession's Terminal) once it adopts it. Empty: unnamed.
	Name string
}

// Session is a logged-in OpenSSH client session.
type Session struct {
	// ID is the ptyseam session running ssh.
	ID core.SessionID
	// Transcript is what the client and server printed during the login
	// (host key notes, banner, message of the day, first prompt), with
	// escape sequences removed. It never holds an answer to a prompt.
	Transcript string
	// AcceptedHostKey reports that the login accepted a new host key.
	AcceptedHostKey bool
}

// LoginError reports that ssh ended without a recognised reason.
type LoginError struct {
	Status core.Status
	// Tail is the end of the client's output.
	Tail string
}

// Error implements error.
func (e *LoginError) Error() string {
	return fmt.Sprintf("openssh: ssh ended during login (%v): %s", e.Status, e.Tail)
}

// Is matches core.ErrSpawnFailed.
func (e *LoginError) Is(target error) bool { return target == core.ErrSpawnFailed }

var (
	rxHostQuestion = regexp.MustCompile(`(?s)Are you sure you want to continue connecting \([^)]*\)\? $`)
	rxFingerprint  = regexp.MustCompile(`(\S+) key fingerprint is (SHA256:[A-Za-z0-9+/=]+)`)
	rxChangedFP    = regexp.MustCompile(`The fingerprint for the (\S+) key sent by the remote host is\s+(SHA256:[A-Za-z0-9+/=]+)`)
	rxPassphrase   = regexp.MustCompile(`Enter passphrase for key '([^']*)': $`)
	rxPassword     = regexp.MustCompile(`(?i)password: $`)
	rxDenied       = regexp.MustCompile(`Permission denied(?: \(([^)]*)\))?`)
	rxGeneric      = regexp.MustCompile(`: $`)
	rxANSI         = regexp.MustCompile("\x1b(?:\\[[0-?]*[ -/]*[@-~]|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|[@-Z\\\\-_])")
)

func clean(b []byte) string {
	s := rxANSI.ReplaceAllString(string(b), "")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "")
}

// Login starts ssh on a new session of owner and logs in. On failure the
// session is closed.
func Login(ctx context.Context, svc Terminals, owner *core.Owner, opts Options) (Session, error) {
	if opts.Host == "" || opts.User == "" {
		return Session{}, core.Errorf(core.CodeInvalidArgument, "openssh: Host and User are required")
	}
	if opts.Quiet <= 0 {
		opts.Quiet = 400 * time.Millisecond
	}
	bin := opts.SSH
	if bin == "" {
		bin = "ssh"
	}
	port := opts.Port
	if port == 0 {
		port = 22
	}
	argv := []string{bin, "-o", "NumberOfPasswordPrompts=1"}
	if opts.KnownHostsFile != "" {
		argv = append(argv, "-o", "UserKnownHostsFile="+opts.KnownHostsFile)
	}
	argv = append(argv, opts.Args...)
	argv = append(argv, "-p", strconv.Itoa(port), opts.User+"@"+opts.Host)
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Name: opts.Name, Command: argv, Size: opts.Size, NoInitialWait: true, Relay: true})
	if err != nil {
		return Session{}, err
	}
	l := &login{svc: svc, owner: owner, id: sp.ID, opts: opts, host: "[" + opts.Host + "]:" + strconv.Itoa(port)}
	if port == 22 {
		l.host = opts.Host
	}
	s, err := l.run(ctx)
	if err != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = svc.Close(cctx, owner, sp.ID, "openssh login failed")
		return Session{}, err
	}
	return s, nil
}

type login struct {
	svc   Terminals
	owner *core.Owner
	id    core.SessionID
	opts  Options
	host  string

	buf      []byte // all output
	answered int    // output before this offset was handled
	asked    map[PromptKind]int
	// triedKinds lists the prompts answered, in order, for AuthError.Tried.
	triedKinds []PromptKind
	accepted   bool
}

func (l *login) write(ctx context.Context, s string) error {
	_, err := l.svc.Write(ctx, l.owner, l.id, []byte(s))
	return err
}

func (l *login) run(ctx context.Context) (Session, error) {
	tap, err := l.svc.Tap(l.owner, l.id)
	if err != nil {
		return Session{}, err
	}
	defer tap.Close()
	l.asked = map[PromptKind]int{}
	ended := false
	for !ended {
		qctx, cancel := context.WithTimeout(ctx, l.opts.Quiet)
		chunk, err := tap.Next(qctx)
		cancel()
		quiet := false
		switch {
		case err == nil:
			l.buf = append(l.buf, chunk...)
		case errors.Is(err, io.EOF):
			ended = true
		case ctx.Err() != nil:
			return Session{}, ctx.Err()
		default:
			quiet = true // the short wait ended
		}
		done, err := l.step(ctx, quiet, ended)
		if err != nil {
			return Session{}, err
		}
		if done {
			s, err := l.finish(ctx)
			if errors.Is(err, shellrun.ErrNoFrame) {
				// ssh ended after all: collect the rest and explain.
				for {
					chunk, err := tap.Next(ctx)
					if err != nil {
						break
					}
					l.buf = append(l.buf, chunk...)
				}
				return Session{}, l.failure(l.status())
			}
			return s, err
		}
	}
	return Session{}, l.failure(l.status())
}

func (l *login) status() core.Status {
	info, ok := l.svc.(interface {
		Info(*core.Owner, core.SessionID) (core.SessionInfo, error)
	})
	if ok {
		if i, err := info.Info(l.owner, l.id); err == nil {
			return i.Status
		}
	}
	return core.Status{}
}

// failure explains why ssh ended.
func (l *login) failure(st core.Status) error {
	text := clean(l.buf)
	if m := rxChangedFP.FindStringSubmatch(text); m != nil || strings.Contains(text, "REMOTE HOST IDENTIFICATION HAS CHANGED") {
		e := &sshpkg.HostKeyChangedError{Host: l.host}
		if m != nil {
			e.KeyType, e.Fingerprint = m[1], m[2]
		}
		return e
	}
	if m := rxDenied.FindStringSubmatch(text); m != nil {
		return l.authError(m[1])
	}
	if strings.Contains(text, "Host key verification failed") {
		e := &sshpkg.UnknownHostError{Host: l.host}
		if m := rxFingerprint.FindStringSubmatch(text); m != nil {
			e.KeyType, e.Fingerprint = m[1], m[2]
		}
		return e
	}
	tail := text
	if len(tail) > 400 {
		tail = tail[len(tail)-400:]
	}
	return &LoginError{Status: st, Tail: tail}
}

// authError reports a failed login: Tried holds the methods whose
// questions this login answered, Offered the methods the server listed
// ("Permission denied (publickey,password).", empty when ssh printed no
// such line).
func (l *login) authError(offered string) error {
	e := &sshpkg.AuthError{User: l.opts.User, Host: l.host}
	for _, m := range strings.Split(offered, ",") {
		if m = strings.TrimSpace(m); m != "" {
			e.Offered = append(e.Offered, m)
		}
	}
	for _, k := range l.triedKinds {
		m := string(k)
		if k == PromptPassphrase {
			m = "publickey"
		}
		if !slices.Contains(e.Tried, m) {
			e.Tried = append(e.Tried, m)
		}
	}
	return e
}

// step handles the output since the last answer. It reports whether the
// shell is ready.
func (l *login) step(ctx context.Context, quiet, ended bool) (bool, error) {
	if ended {
		return false, nil
	}
	pending := clean(l.buf[l.answered:])
	switch {
	case strings.Contains(pending, "REMOTE HOST IDENTIFICATION HAS CHANGED"):
		return false, nil // ssh exits; failure() reports it
	case rxHostQuestion.MatchString(pending):
		q := HostKeyQuestion{Host: l.host, Text: pending}
		if m := rxFingerprint.FindStringSubmatch(pending); m != nil {
			q.KeyType, q.Fingerprint = m[1], m[2]
		}
		yes := false
		if l.opts.HostKey != nil {
			ok, err := l.opts.HostKey(ctx, q)
			if err != nil {
				return false, err
			}
			yes = ok
		}
		l.answered = len(l.buf)
		if !yes {
			_ = l.write(ctx, "no\r")
			return false, &sshpkg.UnknownHostError{Host: l.host, KeyType: q.KeyType, Fingerprint: q.Fingerprint}
		}
		l.accepted = true
		return false, l.write(ctx, "yes\r")
	}
	if m := rxDenied.FindStringSubmatch(pending); m != nil {
		return false, l.authError(m[1])
	}
	var p *Prompt
	switch {
	case rxPassphrase.MatchString(pending):
		m := rxPassphrase.FindStringSubmatch(pending)
		p = &Prompt{Kind: PromptPassphrase, KeyFile: m[1]}
	case rxPassword.MatchString(pending):
		p = &Prompt{Kind: PromptPassword}
	case quiet && rxGeneric.MatchString(pending) && l.asked[PromptPassword]+l.asked[PromptKeyboardInteractive]+l.asked[PromptPassphrase] > 0:
		p = &Prompt{Kind: PromptKeyboardInteractive}
	case quiet && rxGeneric.MatchString(pending) && !strings.Contains(pending, "\n") && len(l.buf) > 0:
		p = &Prompt{Kind: PromptKeyboardInteractive}
	}
	if p != nil {
		lines := strings.Split(pending, "\n")
		p.Text = lines[len(lines)-1]
		if p.Kind == PromptPassword && l.asked[PromptPassword] > 0 {
			return false, l.authError("")
		}
		if p.Kind == PromptPassphrase && l.asked[PromptPassphrase] > 0 {
			return false, fmt.Errorf("openssh: the passphrase for %s was not accepted", p.KeyFile)
		}
		if l.opts.Secrets == nil {
			return false, l.authError("")
		}
		secret, err := l.opts.Secrets(ctx, *p)
		if err != nil {
			return false, err
		}
		l.asked[p.Kind]++
		l.triedKinds = append(l.triedKinds, p.Kind)
		l.answered = len(l.buf)
		return false, l.write(ctx, secret+"\r")
	}
	// Quiet, and the last line is no question: the shell has started (its
	// prompt is there, or typed input will wait for it).
	return quiet && strings.TrimSpace(pending) != "" && !rxGeneric.MatchString(pending), nil
}

// finish synchronises with the shell and installs the prompt marker.
func (l *login) finish(ctx context.Context) (Session, error) {
	if !l.opts.KeepPrompt {
		cmd := promptmark.Install()
		if _, err := shellrun.Run(ctx, l.svc, l.owner, l.id, cmd, shellrun.Options{}); err != nil {
			return Session{}, fmt.Errorf("openssh: synchronising with the remote shell: %w", err)
		}
	}
	if _, err := shellrun.Run(ctx, l.svc, l.owner, l.id, "true", shellrun.Options{}); err != nil {
		return Session{}, fmt.Errorf("openssh: synchronising with the remote shell: %w", err)
	}
	return Session{ID: l.id, Transcript: clean(l.buf), AcceptedHostKey: l.accepted}, nil
}
