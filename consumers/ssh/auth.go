package ssh

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// Auth lists the credentials offered to the server, tried in this order:
// public keys (agent, Signers, KeyFiles), password, keyboard-interactive.
// Each method is tried once: a wrong password is an *AuthError, never a
// retry loop. Secrets are never logged or put into errors.
type Auth struct {
	// Password is offered with the "password" method, and answers the
	// questions of a keyboard-interactive round that asks only hidden
	// questions when KeyboardInteractive is nil (servers such as OpenSSH
	// with PAM that offer only keyboard-interactive).
	Password string
	// KeyboardInteractive answers keyboard-interactive rounds. It is called
	// once per round the server sends, with all of that round's questions.
	KeyboardInteractive KeyboardInteractiveFunc
	// KeyFiles are private key files (OpenSSH, PEM or PKCS#8).
	KeyFiles []string
	// Passphrase decrypts an encrypted key file. It is asked once per file.
	Passphrase func(ctx context.Context, file string) ([]byte, error)
	// Signers are extra private keys already in memory.
	Signers []gossh.Signer
	// Agent offers the keys of the ssh agent at AgentSocket, or at
	// $SSH_AUTH_SOCK when AgentSocket is empty.
	Agent bool
	// AgentSocket is the agent's socket path.
	AgentSocket string
}

// Challenge is one keyboard-interactive round.
type Challenge struct {
	// Round counts rounds from 1.
	Round       int
	Name        string
	Instruction string
	Questions   []Question
}

// Question is one prompt of a keyboard-interactive round.
type Question struct {
	Prompt string
	// Echo reports whether the answer may be shown as it is typed (false
	// for secrets).
	Echo bool
}

// KeyboardInteractiveFunc answers a round with one answer per question.
type KeyboardInteractiveFunc func(ctx context.Context, c Challenge) ([]string, error)

// authState records what was tried, for AuthError.
type authState struct {
	mu      sync.Mutex
	methods []string
	closers []func()
}

func (s *authState) tried(m string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.methods {
		if have == m {
			return
		}
	}
	s.methods = append(s.methods, m)
}

func (s *authState) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.methods...)
}

func (s *authState) close() {
	for _, c := range s.closers {
		c()
	}
}

// methods builds the auth methods. It may dial the agent; the returned
// state's close releases it.
func (a *Auth) methods(ctx context.Context, st *authState) ([]gossh.AuthMethod, error) {
	var signers []gossh.Signer
	if a.Agent {
		sock := a.AgentSocket
		if sock == "" {
			sock = os.Getenv("SSH_AUTH_SOCK")
		}
		if sock == "" {
			return nil, errors.New("ssh: agent requested but no agent socket (SSH_AUTH_SOCK unset)")
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "unix", sock)
		if err != nil {
			return nil, fmt.Errorf("ssh: agent: %w", err)
		}
		st.closers = append(st.closers, func() { _ = c.Close() })
		ag := agent.NewClient(c)
		as, err := ag.Signers()
		if err != nil {
			return nil, fmt.Errorf("ssh: agent: %w", err)
		}
		signers = append(signers, as...)
	}
	signers = append(signers, a.Signers...)
	for _, f := range a.KeyFiles {
		s, err := a.loadKey(ctx, f)
		if err != nil {
			return nil, err
		}
		signers = append(signers, s)
	}
	var ms []gossh.AuthMethod
	if len(signers) > 0 {
		ms = append(ms, gossh.PublicKeysCallback(func() ([]gossh.Signer, error) {
			st.tried("publickey")
			return signers, nil
		}))
	}
	if a.Password != "" {
		pw := a.Password
		ms = append(ms, gossh.PasswordCallback(func() (string, error) {
			st.tried("password")
			return pw, nil
		}))
	}
	if a.KeyboardInteractive != nil || a.Password != "" {
		ms = append(ms, gossh.KeyboardInteractive(a.challenge(ctx, st)))
	}
	return ms, nil
}

func (a *Auth) challenge(ctx context.Context, st *authState) gossh.KeyboardInteractiveChallenge {
	round := 0
	return func(name, instruction string, questions []string, echos []bool) ([]string, error) {
		st.tried("keyboard-interactive")
		round++
		c := Challenge{Round: round, Name: name, Instruction: instruction}
		for i, q := range questions {
			c.Questions = append(c.Questions, Question{Prompt: q, Echo: i < len(echos) && echos[i]})
		}
		if a.KeyboardInteractive != nil {
			ans, err := a.KeyboardInteractive(ctx, c)
			if err != nil {
				return nil, err
			}
			if len(ans) != len(questions) {
				return nil, fmt.Errorf("ssh: keyboard-interactive callback gave %d answers to %d questions", len(ans), len(questions))
			}
			return ans, nil
		}
		// Password fallback: answer hidden questions with the password,
		// once. A second round asking again means the password was wrong.
		ans := make([]string, len(questions))
		for i, q := range c.Questions {
			if q.Echo {
				return nil, errors.New("ssh: keyboard-interactive question needs an answer callback")
			}
			if round > 1 {
				return nil, errors.New("ssh: keyboard-interactive asked again after the password")
			}
			ans[i] = a.Password
		}
		return ans, nil
	}
}

func (a *Auth) loadKey(ctx context.Context, file string) (gossh.Signer, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("ssh: key file: %w", err)
	}
	s, err := gossh.ParsePrivateKey(pem)
	var missing *gossh.PassphraseMissingError
	if errors.As(err, &missing) {
		if a.Passphrase == nil {
			return nil, fmt.Errorf("ssh: key file %s is encrypted and no Passphrase callback is set", file)
		}
		pass, perr := a.Passphrase(ctx, file)
		if perr != nil {
			return nil, fmt.Errorf("ssh: passphrase for %s: %w", file, perr)
		}
		s, err = gossh.ParsePrivateKeyWithPassphrase(pem, pass)
		clear(pass)
		if err != nil {
			// x/crypto's message does not include the passphrase.
			return nil, fmt.Errorf("ssh: key file %s: %w", file, err)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("ssh: key file %s: %w", file, err)
	}
	return s, nil
}
