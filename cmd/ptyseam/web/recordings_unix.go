//go:build unix

package web

import (
	"os"
	"syscall"
)

// writtenByUs reports whether fi is a file the recorder could have written:
// a regular file of this process's user with no other name (a hard link
// to another file has two). The page serves and lists no other.
func writtenByUs(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode().IsRegular() && st.Nlink == 1 && int(st.Uid) == os.Geteuid()
}
