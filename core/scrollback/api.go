package scrollback

// Limits bound a Buffer. Zero fields take the defaults below.
type Limits struct {
	// MaxLines bounds retained lines (default 10,000).
	MaxLines int
	// MaxBytes bounds retained text bytes (default 4 MiB).
	MaxBytes int
	// MaxLineBytes bounds one line; a longer line keeps its tail and counts
	// what it dropped (default 64 KiB).
	MaxLineBytes int
}

// PageRequest selects lines by absolute number. Line 0 is the first line
// ever written.
type PageRequest struct {
	// Start is the first line wanted. Ignored when Newest is set.
	Start int64
	// Count is the number of lines wanted; it must be positive (callers
	// validate and default it).
	Count int
	// Newest selects the newest Count lines instead of starting at Start.
	Newest bool
}

// Page is one bounded page of lines.
type Page struct {
	// Lines holds the page's lines without line ends.
	Lines []string
	PageSpan
}

// PageSpan says where a page lies in the scrollback: which lines it
// holds, which are gone, and whether it was cut. The JSON names are the
// tools' wire names (pty_read, whose result embeds it).
type PageSpan struct {
	// Start and End delimit the page: lines [Start, End).
	Start int64 `json:"start"`
	// End is the number after the page's last line: page on from End.
	End int64 `json:"end"`
	// Total counts every line so far: dropped ones, retained ones, and the
	// current unterminated line when it is not empty.
	Total int64 `json:"total"`
	// First is the oldest retained line.
	First int64 `json:"first"`
	// Partial reports that the page ends with the unterminated current line.
	Partial bool `json:"partial"`
	// Truncated reports that lines of the requested range are no longer
	// retained (Dropped counts them), or that the page was cut short by
	// the byte bound (End then stops early; page on from End).
	Truncated bool `json:"truncated"`
	// Dropped counts requested lines that were no longer retained.
	Dropped int64 `json:"dropped"`
	// LineCut counts the bytes cut from the start of the page's only
	// line, which alone was longer than the byte bound: the page holds its
	// end.
	LineCut int64 `json:"lineCut,omitempty"`
}

// Delta is output read from a [Cursor]. The JSON names are the tools'
// wire names (pty_tail, whose result embeds it).
type Delta struct {
	// Text is the new cleaned output since the cursor. If a partial line
	// already returned was since rewritten (a carriage return), Text starts
	// with "\r" and repeats the whole new line, as a terminal shows it.
	Text string `json:"text"`
	// Truncated reports that output between the cursor and Text was
	// dropped; it is never set when nothing was (and omitted from the
	// JSON when false).
	Truncated bool `json:"truncated,omitempty"`
	// Skipped counts whole lines dropped between the cursor and Text
	// (omitted from the JSON when 0).
	Skipped int64 `json:"skipped,omitempty"`
}

// Marks counts the shell-integration markers (OSC 133) seen in the stream.
type Marks struct {
	// PromptEnds counts OSC 133;B markers (the end of a prompt).
	PromptEnds uint64
	// CommandEnds counts OSC 133;D markers (a command finished).
	CommandEnds uint64
	// LastExitCode is the exit code carried by the newest OSC 133;D;N.
	LastExitCode int
	// LastExitValid reports whether LastExitCode was carried at all.
	LastExitValid bool
	// InputLine is the shell's count of input lines it has read (bash's
	// LINENO), carried by the newest D marker as the option line=N; valid
	// only when InputLineValid. It tells a prompt that answers new input
	// from one printed before that input was read.
	InputLine      int64
	InputLineValid bool
	// Shell is the process id of the shell that printed the newest D
	// marker (the option pid=N), or 0. A prompt of another shell than
	// the one before it is a nested shell's, or the session's shell's
	// after a nested one exited: their counts are not comparable.
	Shell int64
	// InputPending reports that the newest D marker carried inq=1: when
	// the shell printed it, more typed input was waiting (the rest of a
	// multi-line send), so the prompt is not the last.
	InputPending bool
	// TextSincePromptEnd counts text bytes (not control sequences) that
	// arrived after the newest OSC 133;B: zero means the stream ends with a
	// prompt.
	TextSincePromptEnd int64
	// Continuations counts continuation prompts (OSC 133;P: the shell's
	// PS2, printed while a command is incomplete).
	Continuations uint64
	// ContinuationPending reports that a continuation prompt came after
	// the newest prompt end: the shell waits for the rest of a command.
	ContinuationPending bool
	// Draws counts the screens a program drew as full-screen programs
	// do: taking the alternate screen (CSI ? 1049 h or 1047 h), or
	// putting the cursor on a row other than the first by its number
	// (CSI row;col H or f). Clearing the screen (clear's CSI H CSI 2 J)
	// is not a draw, nor, on the normal screen, a row addressed between
	// a save and a restore of the cursor (ESC 7 … ESC 8, CSI s … CSI u):
	// a status line kept under a command's lines, as apt's progress.
	Draws uint64
	// Clears counts whole-screen erases (CSI 2 J). One is clear's; a
	// program that clears and draws again and again (docker stats)
	// redraws a screen.
	Clears uint64
}

// AtPrompt reports whether the stream ends with a marked prompt: an OSC
// 133;B came, and no text after it.
func (m Marks) AtPrompt() bool { return m.PromptEnds > 0 && m.TextSincePromptEnd == 0 }

// Stats summarise what a Buffer has seen.
type Stats struct {
	Lines         int   // retained lines, including a non-empty partial line
	Bytes         int   // retained text bytes
	Total         int64 // lines ever, as Page.Total
	DroppedLines  int64 // lines dropped by the line or byte bound
	CutBytes      int64 // bytes cut from over-long lines
	InvalidUTF8   int64 // invalid byte sequences replaced by U+FFFD
	BytesIngested int64 // raw bytes written
}
