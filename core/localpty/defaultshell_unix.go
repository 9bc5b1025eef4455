//go:build !windows

package localpty

// DefaultShell is the shell argv of the "shell" type.
var DefaultShell = []string{"bash", "--noprofile", "--norc", "-i"}
