package sshtest

import (
	gossh "golang.org/x/crypto/ssh"
)

// Config configures a Server. Authentication methods are offered only
// when configured; with none configured, no client can log in.
type Config struct {
	// User is the only user name accepted ("test" when empty).
	User string
	// Password enables the "password" method with this password.
	Password string
	// PasswordOnlyKeyboardInteractive turns the "password" method off and
	// asks for Password through keyboard-interactive instead (a hidden
	// "Password: " question, before any Rounds), as OpenSSH with PAM does.
	PasswordOnlyKeyboardInteractive bool
	// Rounds enables keyboard-interactive: every round must be answered
	// exactly, in order.
	Rounds []Round
	// AuthorizedKeys enables the "publickey" method for these keys.
	AuthorizedKeys []gossh.PublicKey
	// Banner is sent before authentication.
	Banner string
	// Shell is the argv of a session's login shell; commands run as
	// Shell[0] -c COMMAND. Default: bash without startup files, interactive.
	Shell []string
	// Env holds extra NAME=VALUE variables for every session (a PS1, say).
	Env []string
	// AcceptEnv lists the variable names whose "env" requests are
	// accepted; others are refused, as OpenSSH's AcceptEnv does. "*"
	// accepts all.
	AcceptEnv []string
	// IgnoreSignals refuses every "signal" request, like OpenSSH before 7.9.
	IgnoreSignals bool
	// HostKey is the server's key (a fresh ed25519 key when nil).
	HostKey gossh.Signer
	// ExtraHostKeys are further host keys of other algorithms.
	ExtraHostKeys []gossh.Signer
}

// Round is one keyboard-interactive round.
type Round struct {
	Instruction string
	Questions   []Question
}

// Question is one prompt and the answer the server expects.
type Question struct {
	Prompt string
	Echo   bool
	Answer string
}

func (c *Config) user() string {
	if c.User == "" {
		return "test"
	}
	return c.User
}

func (c *Config) shell() []string {
	if len(c.Shell) == 0 {
		return []string{"/bin/bash", "--noprofile", "--norc", "-i"}
	}
	return c.Shell
}

func (c *Config) accepts(name string) bool {
	for _, a := range c.AcceptEnv {
		if a == "*" || a == name {
			return true
		}
	}
	return false
}
