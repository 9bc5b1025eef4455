package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ptyseam/ptyseam/consumers/jobs/jobtools"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
	"github.com/ptyseam/ptyseam/screen"
)

// Tool profiles: which tools `ptyseam mcp --tools` serves.
const (
	// profileStandard (the default) serves the tools of a model's everyday
	// terminal work, without output schemas: the core tools plus
	// pty_screen and pty_list, pty_secret, and bg_launch, bg_read and
	// bg_stop for programs left running. It leaves out pty_resize,
	// pty_search and the bg_* tools for sending to, listing, grouping and
	// deleting jobs.
	profileStandard = "standard"
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
	ptytools.ToolOpen, ptytools.ToolSend, ptytools.ToolTail, ptytools.ToolClose,
	screen.ToolKeys, ptytools.ToolSignal, ptytools.ToolWait, ptytools.ToolRead,
}

// standardTools are the tools of the standard profile.
var standardTools = append(append([]string(nil), coreTools...),
	screen.ToolScreen, ptytools.ToolList, toolSecret,
	jobtools.ToolLaunch, jobtools.ToolRead, jobtools.ToolStop)

// checkProfile validates a --tools value.
func checkProfile(p string) error {
	switch p {
	case profileStandard, profileCore, profileFull:
		return nil
	}
	return fmt.Errorf("--tools must be %q, %q or %q, not %q", profileStandard, profileCore, profileFull, p)
}

// served reports whether profile p serves the named tool.
func served(p, name string) bool {
	list := coreTools
	switch p {
	case profileFull:
		return true
	case profileStandard:
		list = standardTools
	}
	return slices.Contains(list, name)
}

// fullList reports whether profile p lists its tools as defined, with
// output schemas and closed input objects: core and standard do not (see
// mcpTool; hosts do not show output schemas to a model, and the results
// carry the same structured content either way).
func fullList(p string) bool {
	return p != profileCore && p != profileStandard
}

// withoutJobsHint drops the sentence pointing at bg_launch from pty_open's
// description, for a server that does not serve the job tools.
func withoutJobsHint(t tools.Tool) tools.Tool {
	t.Description = strings.Replace(t.Description, " "+ptytools.OpenJobsHint, "", 1)
	return t
}
