package scrollback

import "github.com/ptyseam/ptyseam/core/promptmark"

// dispatchOSC acts on a complete OSC payload: only the prompt markers
// (package promptmark) B (prompt end), P (continuation prompt) and D
// (command end, with an optional exit code and the options line=N and
// inq=0|1, see [Marks]) are recorded; everything else is dropped.
func (c *cleaner) dispatchOSC(b *Buffer) {
	if c.oscLong {
		return
	}
	m, ok := promptmark.Parse(c.osc)
	if !ok {
		return
	}
	if m.Kind == 'A' || m.Kind == 'D' {
		// The shell is back: a program that took the alternate screen
		// and never left it (killed) took its text along.
		b.alt = false
	}
	switch m.Kind {
	case 'B', 'P', 'D':
		b.storeHeld() // a marker's place in the lines is fixed
		b.up, b.replay = 0, b.replay[:0]
	}
	switch m.Kind {
	case 'B':
		b.marks.PromptEnds++
		b.marks.TextSincePromptEnd = 0
		b.marks.ContinuationPending = false
	case 'P':
		b.marks.Continuations++
		b.marks.ContinuationPending = true
	case 'D':
		b.marks.CommandEnds++
		b.marks.LastExitCode, b.marks.LastExitValid = m.Exit, m.ExitValid
		b.marks.InputLine, b.marks.InputLineValid, b.marks.InputPending = m.Line, m.LineValid, m.InputPending
		b.marks.Shell = m.Shell
	}
}
