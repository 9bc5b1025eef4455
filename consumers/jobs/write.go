package jobs

import (
	"context"

	"github.com/ptyseam/ptyseam/consumers/jobs/escape"
	"github.com/ptyseam/ptyseam/core"
)

// WriteResult says what a write sent.
type WriteResult struct {
	// Bytes is how many bytes were written.
	Bytes int
	// Echo describes the bytes written in escape notation ("rs\n",
	// "\x03").
	Echo string
}

// Write decodes the backslash escapes in data (see the escape package:
// "\x03" is Ctrl-C, "\e[A" the up arrow, unknown escapes are kept as
// written) and writes the bytes to owner's job id. On a PTY job, Ctrl-C
// becomes SIGINT for the foreground program; on a pipe job it is just a
// byte (use Signal). Writing to a job that ended is a SESSION_EXITED error.
func (m *Manager) Write(ctx context.Context, owner *core.Owner, id string, data string) (WriteResult, error) {
	return m.WriteRaw(ctx, owner, id, escape.Decode(data))
}

// WriteRaw writes data to owner's job id as is.
func (m *Manager) WriteRaw(ctx context.Context, owner *core.Owner, id string, data []byte) (WriteResult, error) {
	j, err := m.lookup("write", owner, id)
	if err != nil {
		return WriteResult{}, err
	}
	if j.isExited() {
		return WriteResult{}, jobError(core.CodeSessionExited, "write", id, "the job has ended ("+string(j.snapshot().State)+")")
	}
	n, err := m.svc.Write(ctx, j.sowner, j.sid, data)
	return WriteResult{Bytes: n, Echo: escape.Describe(data[:n])}, err
}
