package procfs

import (
	"bytes"
	"iter"
)

// Mount is one mount of /proc/self/mountinfo: its mount point, with the
// kernel's octal escapes undone (a space is "\040" in the file), its file
// system type and its super options ("rw,nsdelegate").
type Mount struct {
	Point        string
	FSType       string
	SuperOptions string
}

// Mounts yields the mounts of /proc/self/mountinfo (b) in the file's
// order, skipping lines it cannot read: no " - " separator, no file
// system type, fewer than five fields before the separator, or a mount
// point that is not absolute.
func Mounts(b []byte) iter.Seq[Mount] {
	return func(yield func(Mount) bool) {
		for len(b) > 0 {
			var line []byte
			line, b, _ = bytes.Cut(b, []byte{'\n'})
			pre, post, ok := bytes.Cut(line, []byte(" - "))
			if !ok {
				continue
			}
			// After the separator: type, source, super options.
			pf := bytes.Fields(post)
			if len(pf) == 0 {
				continue
			}
			m := Mount{FSType: string(pf[0])}
			if len(pf) >= 3 {
				m.SuperOptions = string(pf[2])
			}
			f := bytes.Fields(pre)
			if len(f) < 5 {
				continue
			}
			m.Point = unescapeMountinfo(f[4])
			if m.Point == "" || m.Point[0] != '/' {
				continue
			}
			if !yield(m) {
				return
			}
		}
	}
}

// MountPoints returns the mount points of the mounts in /proc/self/mountinfo
// (b) that satisfy match, in the file's order.
func MountPoints(b []byte, match func(Mount) bool) []string {
	var out []string
	for m := range Mounts(b) {
		if match(m) {
			out = append(out, m.Point)
		}
	}
	return out
}
