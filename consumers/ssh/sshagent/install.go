package sshagent

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/remote"
)

// agentName is the cache file name of a binary (remote.AgentFileName).
func agentName(sum string) string { return remote.AgentFileName(sum) }

// sha256File hashes a local file (remote.HashFile).
func sha256File(path string) (string, int64, error) { return remote.HashFile(path) }

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// mismatch is what the start command of a just uploaded agent prints
// when the file is not the binary its name says.
const mismatch = "ptyseam-agent-mismatch"

// agentPlan is how to start the agent on one far side.
type agentPlan struct {
	path  string // the far side's path
	sum   string // its expected SHA-256 ("" for RemotePath: not checked)
	local string // the local binary to upload again on a mismatch
	dir   string
	size  int64
}

// command is the command line that starts the agent at p.path (after an
// upload, or RemotePath); a cached agent is checked against its SHA-256
// first (a file changed since its upload is never run).
func (p agentPlan) command() string {
	if p.sum == "" {
		return "exec " + shellQuote(p.path) + " agent"
	}
	return fmt.Sprintf(`f=%s; if [ "$(sha256sum "$f" 2>/dev/null | cut -d ' ' -f 1)" != %s ]; then echo %s; exit 1; fi; exec "$f" agent`,
		shellQuote(p.path), p.sum, mismatch)
}

// binaries returns the configured binaries, by platform, each hashed
// (once per file version, see hash).
func (d *Dialer) binaries() []binary {
	platforms := make([]string, 0, len(d.opts.Binaries))
	for p := range d.opts.Binaries {
		platforms = append(platforms, p)
	}
	sort.Strings(platforms)
	out := make([]binary, 0, len(platforms))
	for _, p := range platforms {
		b := binary{platform: p, local: d.opts.Binaries[p]}
		b.sum, b.size, b.err = d.hash(b.local)
		out = append(out, b)
	}
	return out
}

// plan returns how to install the agent on the far side that gave
// answer a: the binary configured for its platform and its path in the
// far side's cache.
func plan(a startAnswer, bins []binary) (agentPlan, error) {
	platform, err := platformOf(a.kernel, a.machine)
	if err != nil {
		return agentPlan{}, &remote.AgentError{Kind: remote.ErrAgentMissing, Msg: "probing the far side: " + err.Error()}
	}
	if !strings.HasPrefix(a.cacheDir, "/") {
		return agentPlan{}, &remote.AgentError{Kind: remote.ErrAgentMissing, Msg: fmt.Sprintf(
			"probing the far side: the far side's cache directory %q is not absolute (is HOME set?)", a.cacheDir)}
	}
	i := slices.IndexFunc(bins, func(b binary) bool { return b.platform == platform })
	if i < 0 || bins[i].local == "" {
		goos, goarch, _ := strings.Cut(platform, "/")
		return agentPlan{}, &remote.AgentError{Kind: remote.ErrAgentArch, Msg: fmt.Sprintf(
			"the far side is %s and no agent binary for it is configured: build one with `CGO_ENABLED=0 GOOS=%s GOARCH=%s go build github.com/ptyseam/ptyseam/cmd/ptyseam` and name it in Options.Binaries[%q] (or install it there and set Options.RemotePath)",
			platform, goos, goarch, platform)}
	}
	b := bins[i]
	if b.err != nil {
		return agentPlan{}, fmt.Errorf("sshagent: reading the agent binary: %w", b.err)
	}
	return agentPlan{path: a.cacheDir + "/" + agentName(b.sum), sum: b.sum, local: b.local, dir: a.cacheDir, size: b.size}, nil
}

// hash returns a local binary's SHA-256 and size, computed once per path.
func (d *Dialer) hash(path string) (string, int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", 0, err
	}
	key := fmt.Sprintf("%s|%d|%d", path, st.Size(), st.ModTime().UnixNano())
	d.mu.Lock()
	h, ok := d.hashes[key]
	d.mu.Unlock()
	if ok {
		return h.sum, h.size, nil
	}
	sum, size, err := sha256File(path)
	if err != nil {
		return "", 0, err
	}
	d.mu.Lock()
	d.hashes[key] = hashed{sum, size}
	d.mu.Unlock()
	return sum, size, nil
}

type hashed struct {
	sum  string
	size int64
}

// upload copies the binary to the far side through an exec channel: into
// a temporary file, checked against its SHA-256 there, then renamed into
// place (concurrent uploads each rename a complete, checked file).
func (d *Dialer) upload(ctx context.Context, t *ssh.Target, p agentPlan) error {
	local, dir, path, sum, size := p.local, p.dir, p.path, p.sum, p.size
	f, err := os.Open(local)
	if err != nil {
		return fmt.Errorf("sshagent: %w", err)
	}
	defer f.Close()
	script := fmt.Sprintf(`set -e; umask 077; d=%s; f=%s; mkdir -p "$d"; t="$d/.upload-$$"; trap 'rm -f "$t"' EXIT; `+
		`head -c %d > "$t"; got=$(sha256sum "$t" | cut -d ' ' -f 1); `+
		`if [ "$got" != %s ]; then echo "the uploaded agent's SHA-256 is $got, want %s" >&2; exit 1; fi; `+
		`chmod 700 "$t"; mv -f "$t" "$f"; trap - EXIT; echo ptyseam-uploaded`,
		shellQuote(dir), shellQuote(path), size, sum, sum)
	st, err := d.ssh.Stream(ctx, t, script)
	if err != nil {
		return fmt.Errorf("sshagent: starting the upload: %w", err)
	}
	defer st.Close()
	stop := context.AfterFunc(ctx, func() { _ = st.Close() })
	defer stop()
	if _, err := io.Copy(st, io.LimitReader(f, size)); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return fmt.Errorf("sshagent: uploading the agent (%d bytes): %w %s", size, err, strings.TrimSpace(st.Stderr()))
	}
	_ = st.CloseWrite()
	out, _ := io.ReadAll(io.LimitReader(st, 4096))
	select {
	case <-st.Exited():
	case <-ctx.Done():
		return fmt.Errorf("sshagent: uploading the agent: %w", ctx.Err())
	}
	<-st.StderrDone()
	if status := st.ExitStatus(); status.ExitCode != 0 || !bytes.Contains(out, []byte("ptyseam-uploaded")) {
		return fmt.Errorf("sshagent: uploading the agent to %s failed (%s): %s", path, status, strings.TrimSpace(st.Stderr()+" "+string(out)))
	}
	d.log.Info("sshagent: uploaded the agent", "host", t.Host, "user", t.User, "path", path, "bytes", size)
	return nil
}
