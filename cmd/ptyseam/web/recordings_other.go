//go:build !unix

package web

import "os"

// writtenByUs reports whether fi is a file the recorder could have written.
// Without owners and link counts to compare, it is any regular file.
func writtenByUs(fi os.FileInfo) bool { return fi.Mode().IsRegular() }
