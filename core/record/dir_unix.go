//go:build unix

package record

import (
	"os"
	"syscall"
)

// ownerOf returns the user id that owns the file fi describes.
func ownerOf(fi os.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
