package k8s

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ptyseam/ptyseam/remote"
)

// agentFile is the local agent binary and its SHA-256.
type agentFile struct {
	path string
	sum  string
	size int64
}

// AgentDir is where the backend keeps the agent in a pod: one file per
// binary, named by its hash (remote.AgentFileName).
const AgentDir = "/tmp/.ptyseam-agent"

// The first line the start script prints: the host must send the binary,
// or the pod has it already.
const (
	lineNeed     = "ptyseam-agent-need"
	lineHave     = "ptyseam-agent-have"
	lineMismatch = "ptyseam-agent-mismatch"
)

// startScript is the exec that starts the agent in a pod: it runs the
// kept copy if its SHA-256 is the binary's; else it asks for the binary
// (lineNeed), reads exactly its size from stdin into a temporary file,
// checks its hash and renames it into place; then it execs the agent,
// whose stdin and stdout go on carrying the remote protocol. Nothing
// unchecked ever runs. It needs sh, mkdir, head, sha256sum, chmod and mv
// (coreutils or busybox) and a writable /tmp.
func (a agentFile) startScript() string {
	return fmt.Sprintf(`d=%s; f="$d/%s"; s=%s
ok() { [ -x "$f" ] && h=$(sha256sum "$f" 2>/dev/null) && [ "${h%%%% *}" = "$s" ]; }
if ok; then echo %s; else
  umask 077; mkdir -p "$d" || exit 1; t="$d/.copy-$$"
  echo %s
  head -c %d > "$t" && chmod 700 "$t" && mv -f "$t" "$f" || { rm -f "$t"; exit 1; }
  ok || { echo %s; exit 1; }
fi
exec "$f" agent`, AgentDir, remote.AgentFileName(a.sum), a.sum, lineHave, lineNeed, a.size, lineMismatch)
}

// maxFirstLine bounds the start script's first line.
const maxFirstLine = 256

// install reads the start script's first line from st and sends the
// binary when the pod asks for it. The agent's hello follows on st.
func (a agentFile) install(ctx context.Context, st *execStream) error {
	line, err := readFirstLine(st)
	if err != nil {
		<-st.Done()
		msg := st.Stderr()
		if msg == "" && st.Err() != nil {
			msg = st.Err().Error()
		}
		return fmt.Errorf("%w: %s", ErrExecRefused, msg)
	}
	switch line {
	case lineHave:
		return nil
	case lineNeed:
	default:
		return &remote.AgentError{Kind: remote.ErrAgentMissing, Msg: "the pod did not run the agent's start script", Output: line}
	}
	f, err := os.Open(a.path)
	if err != nil {
		return fmt.Errorf("k8s: reading the agent binary: %w", err)
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, st.abort)
	defer stop()
	if _, err := io.Copy(st, io.LimitReader(f, a.size)); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return fmt.Errorf("k8s: copying the agent into the pod (%d bytes): %w %s", a.size, err, st.Stderr())
	}
	return nil
}

// readFirstLine reads one line byte by byte (what follows it is the
// agent's).
func readFirstLine(r io.Reader) (string, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) < maxFirstLine {
		if _, err := io.ReadFull(r, b); err != nil {
			return string(line), err
		}
		if b[0] == '\n' {
			return string(bytes.TrimRight(line, "\r")), nil
		}
		line = append(line, b[0])
	}
	return string(line), nil
}
