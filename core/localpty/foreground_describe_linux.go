package localpty

import (
	"bytes"
	"os"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// DescribeForeground names the terminal's foreground program from a probe
// and its leader's /proc comm (see core.Prober.DescribeForeground).
func (s *session) DescribeForeground() (core.ForegroundProgram, bool, error) {
	st, err := s.probe()
	if err != nil {
		return core.ForegroundProgram{}, false, err
	}
	p := core.ForegroundProgram{Group: st.PGID, Reading: st.ReadingInput, UnreadInput: st.PendingInput}
	if !st.ReadingInput {
		p.UnreadInput = s.pendingInput() // the probe counts it for a reader only
	}
	if !st.Leader {
		p.IgnoresInterrupt = s.groupIgnores(st.PGID, unix.SIGINT)
	}
	if b, err := os.ReadFile(procfs.Path(st.PGID, "comm")); err == nil {
		p.Name = string(bytes.TrimSpace(b))
	}
	return p, st.Leader, nil
}
