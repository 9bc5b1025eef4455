package remote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The hello lines open a stream, before yamux starts: the agent's first,
// then the host's answer (docs/remote.md, "Hello").
const (
	agentMagic = "ptyseam-agent "
	hostMagic  = "ptyseam-host "
	// maxHelloLine bounds one hello line.
	maxHelloLine = 4 << 10
	// maxPreamble bounds what the host skips before the agent's hello (a
	// noisy login script on the far side): past it, the agent is missing.
	maxPreamble = 16 << 10
)

// agentHello is what the agent says about itself.
type agentHello struct {
	Min   int    `json:"min"`   // the oldest protocol version it speaks
	Max   int    `json:"max"`   // the newest
	OS    string `json:"os"`    // runtime.GOOS
	Arch  string `json:"arch"`  // runtime.GOARCH
	PID   int    `json:"pid"`   // its process id on the far side
	Build string `json:"build"` // its build (module version), for diagnostics
}

// hostHello is the host's answer: the version both will speak, or 0 and
// why not.
type hostHello struct {
	Version int    `json:"version"`
	Error   string `json:"error,omitempty"`
}

// encodeHello renders one hello line.
func encodeHello(magic string, v any) []byte {
	b, _ := json.Marshal(v) // plain structs: cannot fail
	return append(append([]byte(magic), b...), '\n')
}

// parseHello decodes a hello line (without its newline) that starts with
// magic; ok is false when the line is not a hello at all.
func parseHello(line []byte, magic string, v any) (ok bool, err error) {
	line = bytes.TrimRight(line, "\r")
	if !bytes.HasPrefix(line, []byte(magic)) {
		return false, nil
	}
	if err := json.Unmarshal(line[len(magic):], v); err != nil {
		return true, fmt.Errorf("%w: a hello line that does not parse: %v", errFrame, err)
	}
	return true, nil
}

// readLine reads one line of at most max bytes, a byte at a time so that
// nothing after the newline is consumed (yamux frames follow). It returns
// the line without its newline; io.EOF or io.ErrUnexpectedEOF when the
// stream ended first (with what was read); errLineTooLong past max.
func readLine(r io.Reader, max int) ([]byte, error) {
	var out []byte
	var b [1]byte
	for {
		n, err := r.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				return out, nil
			}
			if len(out) >= max {
				return out, errLineTooLong
			}
			out = append(out, b[0])
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) && len(out) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return out, err
		}
	}
}

var errLineTooLong = errors.New("remote: hello line too long")

// negotiate picks the version a host speaking [min, max] and the agent
// agree on, or explains why there is none.
func negotiate(min, max int, a agentHello) (int, error) {
	switch {
	case a.Max < a.Min:
		return 0, &AgentError{Kind: ErrAgentVersion, Msg: fmt.Sprintf("the agent announced an invalid protocol range [%d, %d]", a.Min, a.Max)}
	case a.Max < min:
		return 0, &AgentError{Kind: ErrAgentVersion, Msg: fmt.Sprintf(
			"the agent is too old: it speaks protocol versions %d to %d, this host needs at least %d; install the agent of this ptyseam build (or remove the cached one so that it is uploaded again)",
			a.Min, a.Max, min)}
	case a.Min > max:
		return 0, &AgentError{Kind: ErrAgentVersion, Msg: fmt.Sprintf(
			"the agent is newer than this host: it speaks protocol versions %d to %d, this host at most %d; update ptyseam on this host or install an older agent",
			a.Min, a.Max, max)}
	}
	return minInt(a.Max, max), nil
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// missingAgent builds the error for a stream that never said hello: what
// the far side printed instead says why (a shell's "not found", the
// kernel's "Exec format error" for a binary of another architecture).
func missingAgent(seen []byte, cause error) error {
	text := strings.TrimSpace(string(seen))
	if len(text) > 512 {
		text = text[len(text)-512:]
	}
	kind := ErrAgentMissing
	low := strings.ToLower(text)
	if strings.Contains(low, "exec format error") || strings.Contains(low, "cannot execute binary file") {
		kind = ErrAgentArch
	}
	msg := "the far side did not start a ptyseam agent"
	if kind == ErrAgentArch {
		msg = "the agent binary is for another architecture than the far side"
	}
	if cause != nil && !errors.Is(cause, io.EOF) && !errors.Is(cause, io.ErrUnexpectedEOF) {
		msg += " (" + cause.Error() + ")"
	}
	return &AgentError{Kind: kind, Msg: msg, Output: text}
}
