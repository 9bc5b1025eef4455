package localpty

import "github.com/ptyseam/ptyseam/core/conpty"

// DefaultShell is the shell argv of the "shell" type: on Windows
// conpty.DefaultShell, cmd.exe.
var DefaultShell = conpty.DefaultShell
