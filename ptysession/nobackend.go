package ptysession

import (
	"errors"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// registerHints say how to register the backends of ptyseam's own
// consumers, by type (their packages import this one, so the type names
// are written out here).
var registerHints = map[string]string{
	"ssh":    `svc.Register(ssh.NewBackend(ssh.BackendOptions{Logger: logger})), package github.com/ptyseam/ptyseam/consumers/ssh`,
	"docker": `b, err := docker.NewBackend(docker.BackendOptions{}); svc.Register(b), package github.com/ptyseam/ptyseam/consumers/docker`,
}

// noBackendHelp says, in a spawn's NO_BACKEND error, how to register a
// backend of the type asked for: a facade's caller wired the service and
// can fix it. Other errors are returned as they are.
func (s *Sessions) noBackendHelp(err error, typ string) error {
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.CodeNoBackend {
		return err
	}
	msg := "no backend of type " + core.QuoteForMsg(typ) + " is registered on the service the facade works over"
	if b, ok := s.t.(interface{ Backends() []string }); ok {
		msg += " (it has: " + strings.Join(b.Backends(), ", ") + ")"
	}
	msg += ": register one before opening (core.Service.Register)"
	if h, ok := registerHints[typ]; ok {
		msg += ", for " + core.QuoteForMsg(typ) + ": " + h
	}
	c := *e
	c.Msg = msg
	return &c
}
