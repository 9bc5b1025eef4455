package main

import (
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
	"github.com/ptyseam/ptyseam/screen"
)

// Tool profiles: which tools `ptyseam mcp --tools` serves.
const (
	// profileFull serves every tool, with output schemas.
	profileFull = "full"
	// profileCore serves what a model needs most in a small tool list:
	// the seed's four tools, pty_keys for full-screen programs,
	// pty_signal, pty_wait and pty_read (output is returned once: reading
	// it again takes pty_read), without output schemas (hosts do not show
	// them to a model; the results keep their structured content).
	profileCore = "core"
)

// coreTools are the tools of the core profile, in the order served.
var coreTools = []string{
	ptysession.ToolOpen, ptysession.ToolSend, ptysession.ToolTail, ptysession.ToolClose,
	screen.ToolKeys, ptysession.ToolSignal, ptysession.ToolWait, ptysession.ToolRead,
}

// checkProfile validates a --tools value.
func checkProfile(p string) error {
	if p != profileCore && p != profileFull {
		return fmt.Errorf("--tools must be %q or %q, not %q", profileCore, profileFull, p)
	}
	return nil
}

// served reports whether profile p serves the named tool.
func served(p, name string) bool {
	if p == profileFull {
		return true
	}
	for _, n := range coreTools {
		if n == name {
			return true
		}
	}
	return false
}

// withoutJobsHint drops the sentence pointing at bg_launch from pty_open's
// description, for a server that does not serve the job tools.
func withoutJobsHint(t tools.Tool) tools.Tool {
	t.Description = strings.Replace(t.Description, " "+ptysession.OpenJobsHint, "", 1)
	return t
}
