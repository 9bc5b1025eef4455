package ssh

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// Sentinel errors for errors.Is. The typed errors below match them, and
// also core.ErrSpawnFailed, since each one stops a session from starting.
var (
	// ErrUnknownHost: the server's host key is in no known_hosts file.
	ErrUnknownHost = errors.New("ssh: unknown host")
	// ErrHostKeyChanged: known_hosts holds other keys for the host.
	ErrHostKeyChanged = errors.New("ssh: host key changed")
	// ErrHostKeyRevoked: the server presented a key marked @revoked.
	ErrHostKeyRevoked = errors.New("ssh: host key revoked")
	// ErrAuth: the server accepted none of the offered credentials.
	ErrAuth = errors.New("ssh: authentication failed")
	// ErrConnectionLost: the connection to the server ended under the
	// session (the server died, the network failed, keepalives went
	// unanswered). The errors of calls on such a session match it: the
	// backend session's own, and the service's SESSION_EXITED errors
	// (through core.Prober.ExitCause). Its Status.Reason is "connection lost".
	ErrConnectionLost = errors.New("ssh: connection lost")
)

// UnknownHostError reports a host whose key no known_hosts file lists. The
// key was not accepted. Check Fingerprint out of band, then either add
// the key to a known_hosts file or set HostKeyPolicy.AcceptNew.
type UnknownHostError struct {
	// Host is the address as known_hosts names it ("host" or "[host]:port").
	Host string
	// KeyType is the key's algorithm ("ssh-ed25519").
	KeyType string
	// Fingerprint is the key's SHA256 fingerprint ("SHA256:...").
	Fingerprint string
	// Line is the known_hosts line that would trust this key.
	Line string
}

// Error implements error. It says how to trust the host: the known_hosts
// line to add when Line is known (the backend's check), else how to get
// the key (the OpenSSH client's refusal).
func (e *UnknownHostError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ssh: host %s is unknown", e.Host)
	if e.Fingerprint != "" {
		fmt.Fprintf(&b, ": %s key fingerprint is %s", e.KeyType, e.Fingerprint)
	}
	b.WriteString("; to trust it, check the fingerprint out of band, then ")
	if e.Line != "" {
		fmt.Fprintf(&b, "add this line to a known_hosts file (HostKeyPolicy.KnownHostsFiles): %s, or set HostKeyPolicy.AcceptNew to trust a new host on first use", e.Line)
	} else {
		b.WriteString("add its key to the known_hosts file (ssh-keyscan prints the line), or answer yes to the client's question (openssh.Options.HostKey)")
	}
	return b.String()
}

// Is matches ErrUnknownHost and core.ErrSpawnFailed.
func (e *UnknownHostError) Is(target error) bool {
	return target == ErrUnknownHost || target == core.ErrSpawnFailed
}

// KnownKeyRef names a key that a known_hosts file holds for a host.
type KnownKeyRef struct {
	File        string
	Line        int
	KeyType     string
	Fingerprint string
}

// HostKeyChangedError reports that the server presented a key other than
// the ones known_hosts holds for it. The key is never accepted: a changed
// key may be an attack, and only a person can decide it is not.
type HostKeyChangedError struct {
	Host        string
	KeyType     string
	Fingerprint string
	// Known lists the keys on record for the host.
	Known []KnownKeyRef
}

// Error implements error.
func (e *HostKeyChangedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ssh: HOST KEY CHANGED for %s: server sent %s %s", e.Host, e.KeyType, e.Fingerprint)
	for i, k := range e.Known {
		if i == 0 {
			b.WriteString("; on record:")
		}
		fmt.Fprintf(&b, " %s %s (%s:%d)", k.KeyType, k.Fingerprint, k.File, k.Line)
	}
	return b.String()
}

// Is matches ErrHostKeyChanged and core.ErrSpawnFailed.
func (e *HostKeyChangedError) Is(target error) bool {
	return target == ErrHostKeyChanged || target == core.ErrSpawnFailed
}

// HostKeyRevokedError reports a host key marked @revoked in known_hosts.
type HostKeyRevokedError struct {
	Host        string
	Fingerprint string
	File        string
	Line        int
}

// Error implements error.
func (e *HostKeyRevokedError) Error() string {
	return fmt.Sprintf("ssh: host key %s of %s is revoked (%s:%d)", e.Fingerprint, e.Host, e.File, e.Line)
}

// Is matches ErrHostKeyRevoked and core.ErrSpawnFailed.
func (e *HostKeyRevokedError) Is(target error) bool {
	return target == ErrHostKeyRevoked || target == core.ErrSpawnFailed
}

// AuthError reports that authentication failed. It never carries a
// secret: only the user, the host and method names.
type AuthError struct {
	User string
	Host string
	// Tried lists the methods the client tried, in order ("publickey",
	// "password", "keyboard-interactive"). Through the OpenSSH client
	// (package openssh) it lists the methods whose questions were
	// answered; keys the client offered on its own are not seen there.
	Tried []string
	// Offered lists the methods the server said could continue
	// ("publickey", "password"), when known: the OpenSSH client prints
	// them ("Permission denied (publickey,password)."); x/crypto/ssh does
	// not expose them, so the backend leaves Offered empty.
	Offered []string
	// Err is the underlying library error (it names methods, not secrets).
	Err error
}

// Error implements error.
func (e *AuthError) Error() string {
	s := fmt.Sprintf("ssh: authentication failed for %s@%s", e.User, e.Host)
	if len(e.Tried) > 0 {
		s += " (tried " + strings.Join(e.Tried, ", ") + ")"
	}
	if len(e.Offered) > 0 {
		s += " (the server offers " + strings.Join(e.Offered, ", ") + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *AuthError) Unwrap() error { return e.Err }

// Is matches ErrAuth and core.ErrSpawnFailed.
func (e *AuthError) Is(target error) bool {
	return target == ErrAuth || target == core.ErrSpawnFailed
}

// DialError reports that the connection could not be made (TCP, protocol
// handshake or a cancelled context). errors.Is matches the cause, so a
// cancelled dial matches context.Canceled.
type DialError struct {
	Addr string
	Err  error
}

// Error implements error.
func (e *DialError) Error() string { return "ssh: dial " + e.Addr + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *DialError) Unwrap() error { return e.Err }

// Is matches core.ErrSpawnFailed.
func (e *DialError) Is(target error) bool { return target == core.ErrSpawnFailed }
