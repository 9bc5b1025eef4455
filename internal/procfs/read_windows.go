package procfs

// Windows has no /proc: every reader fails with UnsupportedError, and
// the probes that use it report nothing rather than a guess.

// ReadFile fails with UnsupportedError: Windows has no /proc.
func ReadFile(path string, buf []byte) ([]byte, error) {
	return nil, &UnsupportedError{Op: "ReadFile"}
}

// ListChildren fails with UnsupportedError: Windows has no /proc.
func ListChildren(pid int, buf []byte) ([]int, error) {
	return nil, &UnsupportedError{Op: "ListChildren"}
}

func listDir(path string) ([]int, error) {
	return nil, &UnsupportedError{Op: "listDir"}
}

// FDLink returns "": Windows has no /proc.
func FDLink(pid, fd int) string { return "" }

// ReadMem returns false: Windows has no /proc.
func ReadMem(pid int, addr uint64, p []byte) bool { return false }
