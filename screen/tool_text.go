package screen

import (
	"strconv"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

func renderResize(id string, r ResizeResult) string {
	return "Session " + id + " resized to " + strconv.Itoa(r.Rows) + " rows x " + strconv.Itoa(r.Cols) +
		" columns. Look with pty_screen once the program redrew."
}

// renderKeys renders pty_keys' result in pty_send's form: a bracketed
// summary ("[stdin_read]", "[prompt; left the full-screen program: …]",
// "[timeout; watch (pgid 42) holds the terminal and is busy; 1 byte you
// typed waits unread …]",
// "; session exited 0" once the session is not running), then the screen
// or the output.
func renderKeys(r KeysToolResult) string {
	head := "[" + string(r.WaitReason)
	if r.Foreground != nil {
		head += "; " + ptysession.ForegroundNote(r.WaitReason, r.Foreground)
	}
	if r.CommandLine != "" {
		head += "; " + ptysession.CommandLineNote(r.CommandLine)
	}
	if r.LeftFullScreen {
		head += "; left the full-screen program: rows new on the normal screen follow"
	}
	if r.Discarded > 0 {
		head += "; the program discarded " + strconv.Itoa(r.Discarded) + " bytes of the keys unread: send them again with paced:true"
	}
	if r.ExitCode != nil {
		head += "; " + ptysession.ExitCodeNote(*r.ExitCode)
	}
	if r.Status.Kind != core.StatusRunning {
		head += "; session " + r.Status.String()
	}
	if r.Truncated {
		head += "; older output cut"
	}
	if r.Screen != nil {
		return head + "]\n" + r.Screen.Text()
	}
	if r.Delta == "" {
		return head + "]\n(no output)"
	}
	return head + "]\n" + r.Delta
}
