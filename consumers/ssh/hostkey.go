package ssh

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// HostKeyPolicy decides which server host keys to trust. The zero value is
// strict: the key must be in ~/.ssh/known_hosts. An unknown host fails with
// *UnknownHostError (carrying the fingerprint) and a changed key with
// *HostKeyChangedError; a changed key is never accepted, whatever the
// policy.
type HostKeyPolicy struct {
	// KnownHostsFiles are the known_hosts files to check (missing files are
	// treated as empty). Default: ~/.ssh/known_hosts.
	KnownHostsFiles []string
	// AcceptNew trusts the key of a host that no file lists (trust on
	// first use) and appends it to WriteFile. Off by default.
	AcceptNew bool
	// WriteFile is where AcceptNew records new keys (default: the first of
	// KnownHostsFiles). Its directory is created with mode 0700 and the
	// file with 0600 if missing.
	WriteFile string
	// Callback, when set, replaces known_hosts checking entirely. Use it
	// only for keys pinned by other means; this package never skips host
	// key checking on its own.
	Callback gossh.HostKeyCallback
}

func (p *HostKeyPolicy) files() []string {
	if len(p.KnownHostsFiles) > 0 {
		return p.KnownHostsFiles
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".ssh", "known_hosts")}
}

func (p *HostKeyPolicy) writeFile() string {
	if p.WriteFile != "" {
		return p.WriteFile
	}
	if fs := p.files(); len(fs) > 0 {
		return fs[0]
	}
	return ""
}

// knownHostsWriteMu serialises appends to known_hosts files in this process.
var knownHostsWriteMu sync.Mutex

// hostKeyChecker verifies one connection's host key.
type hostKeyChecker struct {
	policy *HostKeyPolicy
	host   string // as known_hosts names it
	db     gossh.HostKeyCallback
	// accepted is the key that passed, for ConnectionInfo.
	accepted gossh.PublicKey
	// checked reports that the host key was verified (so a later failure
	// is an authentication failure, not a host key one).
	checked bool
}

func newHostKeyChecker(p *HostKeyPolicy, addr string) (*hostKeyChecker, error) {
	c := &hostKeyChecker{policy: p, host: knownhosts.Normalize(addr)}
	if p.Callback != nil {
		return c, nil
	}
	var existing []string
	for _, f := range p.files() {
		if _, err := os.Stat(f); err == nil {
			existing = append(existing, f)
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("ssh: known_hosts: %w", err)
		}
	}
	if len(existing) > 0 {
		db, err := knownhosts.New(existing...)
		if err != nil {
			return nil, fmt.Errorf("ssh: known_hosts: %w", err)
		}
		c.db = db
	}
	return c, nil
}

var (
	probeKeyOnce sync.Once
	probeKey     gossh.PublicKey
)

// algorithms returns the host key algorithms to offer: first those of the
// keys known_hosts lists for the host, so that the server is asked for a
// key we can verify rather than its favourite (which would look like a
// changed key), then every other algorithm the library implements, so
// that a server which now has only a key of another type still completes
// the key exchange and the callback sees that key (and refuses it as
// changed) instead of the handshake failing with "no common algorithm",
// which a caller could not tell from a network fault. Nil when the host
// is unknown: the library default then applies.
func (c *hostKeyChecker) algorithms(addr string) []string {
	if c.db == nil {
		return nil
	}
	probeKeyOnce.Do(func() {
		pub, _, err := ed25519.GenerateKey(rand.Reader)
		if err == nil {
			probeKey, _ = gossh.NewPublicKey(pub)
		}
	})
	if probeKey == nil {
		return nil
	}
	var ke *knownhosts.KeyError
	if err := c.db(addr, fakeRemote(addr), probeKey); !errors.As(err, &ke) {
		return nil
	}
	var algos []string
	add := func(a ...string) {
		for _, x := range a {
			dup := false
			for _, y := range algos {
				dup = dup || x == y
			}
			if !dup {
				algos = append(algos, x)
			}
		}
	}
	for _, k := range ke.Want {
		switch t := k.Key.Type(); t {
		case gossh.KeyAlgoRSA:
			add(gossh.KeyAlgoRSASHA512, gossh.KeyAlgoRSASHA256, gossh.KeyAlgoRSA)
		case gossh.CertAlgoRSAv01:
			add(gossh.CertAlgoRSASHA512v01, gossh.CertAlgoRSASHA256v01, gossh.CertAlgoRSAv01)
		default:
			add(t)
		}
	}
	if len(algos) == 0 {
		return nil
	}
	// The rest, in the library's order of preference. ssh-rsa (SHA-1) comes
	// last: a key offered that way is only ever refused as changed, since
	// an RSA key on record already put it in the list above.
	add(gossh.SupportedAlgorithms().HostKeys...)
	add(gossh.KeyAlgoRSA)
	return algos
}

func fakeRemote(addr string) net.Addr {
	_, p, err := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(p)
	if err != nil {
		port = defaultPort
	}
	return &net.TCPAddr{IP: net.IPv4zero, Port: port}
}

// check is the HostKeyCallback.
func (c *hostKeyChecker) check(hostname string, remote net.Addr, key gossh.PublicKey) error {
	if c.policy.Callback != nil {
		if err := c.policy.Callback(hostname, remote, key); err != nil {
			return err
		}
		c.accepted, c.checked = key, true
		return nil
	}
	var err error
	if c.db != nil {
		err = c.db(hostname, remote, key)
	} else {
		err = &knownhosts.KeyError{}
	}
	if err == nil {
		c.accepted, c.checked = key, true
		return nil
	}
	fp := gossh.FingerprintSHA256(key)
	var ke *knownhosts.KeyError
	var re *knownhosts.RevokedError
	switch {
	case errors.As(err, &re):
		return &HostKeyRevokedError{Host: c.host, Fingerprint: fp, File: re.Revoked.Filename, Line: re.Revoked.Line}
	case errors.As(err, &ke) && len(ke.Want) > 0:
		ce := &HostKeyChangedError{Host: c.host, KeyType: key.Type(), Fingerprint: fp}
		for _, k := range ke.Want {
			ce.Known = append(ce.Known, KnownKeyRef{File: k.Filename, Line: k.Line, KeyType: k.Key.Type(), Fingerprint: gossh.FingerprintSHA256(k.Key)})
		}
		return ce
	case errors.As(err, &ke):
		line := knownhosts.Line([]string{c.host}, key)
		if !c.policy.AcceptNew {
			return &UnknownHostError{Host: c.host, KeyType: key.Type(), Fingerprint: fp, Line: line}
		}
		if werr := appendKnownHost(c.policy.writeFile(), line); werr != nil {
			return fmt.Errorf("ssh: recording the key of new host %s: %w", c.host, werr)
		}
		c.accepted, c.checked = key, true
		return nil
	}
	return err
}

func appendKnownHost(file, line string) error {
	if file == "" {
		return errors.New("no known_hosts file to write")
	}
	knownHostsWriteMu.Lock()
	defer knownHostsWriteMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	// Start on a new line if the file does not end with one.
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		buf := make([]byte, 1)
		if r, err := os.Open(file); err == nil {
			if _, err := r.ReadAt(buf, st.Size()-1); err == nil && buf[0] != '\n' {
				line = "\n" + line
			}
			_ = r.Close()
		}
	}
	_, werr := f.WriteString(line + "\n")
	cerr := f.Close()
	return errors.Join(werr, cerr)
}
