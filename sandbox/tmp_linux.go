package sandbox

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// mountPrivateTmp mounts a tmpfs of p.TmpBytes over /tmp, in the session's
// mount namespace: its files are the session's alone, gone with its last
// process. The paths under /tmp that p lists, and the working directory
// the session starts in, are cloned before the tmpfs hides them and
// mounted back at their places in it, the read-only ones (the working
// directory unless listed writable) read-only: Landlock lets the session
// write all of its /tmp, and a rule cannot take that back below it.
func mountPrivateTmp(p Policy) error {
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("the session's working directory: %w", err)
	}
	var keeps []clonedTree
	defer closeTrees(&keeps)
	for _, tp := range tmpPaths(p, cwd) {
		kept, err := cloneTree(&keeps, tp.path)
		if err != nil {
			return err
		}
		if kept && !tp.writable {
			attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
			if err := unix.MountSetattr(keeps[len(keeps)-1].fd, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
				return fmt.Errorf("making %s read-only: %w", tp.path, err)
			}
		}
	}
	opts := "mode=1777,size=" + strconv.FormatInt(p.TmpBytes, 10)
	if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting the session's /tmp: %w", err)
	}
	for _, k := range keeps {
		if err := k.attach(); err != nil {
			return err
		}
	}
	// Enter the working directory as mounted back, where its path leads.
	if err := os.Chdir(cwd); err != nil {
		return fmt.Errorf("the session's working directory %s: %w", cwd, err)
	}
	return nil
}

// tmpPath is a path below /tmp that a policy lists, and whether it may be
// written.
type tmpPath struct {
	path     string
	writable bool
}

// tmpPaths returns the paths below /tmp that p lists, and cwd (read-only
// unless listed writable), cleaned, ancestors first, leaving out those an
// ancestor's mount shows as they are: below a writable one, or read-only
// below a read-only one.
func tmpPaths(p Policy, cwd string) []tmpPath {
	access := map[string]bool{}
	for _, list := range []struct {
		paths    []string
		writable bool
	}{{append([]string{cwd}, p.ReadOnly...), false}, {p.Writable, true}} {
		for _, path := range list.paths {
			if path = filepath.Clean(path); strings.HasPrefix(path, "/tmp/") {
				access[path] = access[path] || list.writable
			}
		}
	}
	paths := make([]string, 0, len(access))
	for path := range access {
		paths = append(paths, path)
	}
	slices.SortFunc(paths, func(a, b string) int {
		return cmp.Or(strings.Count(a, "/")-strings.Count(b, "/"), strings.Compare(a, b))
	})
	var out []tmpPath
	for _, path := range paths {
		shown := false
		for _, kept := range out {
			if strings.HasPrefix(path, kept.path+"/") && (kept.writable || !access[path]) {
				shown = true
			}
		}
		if !shown {
			out = append(out, tmpPath{path, access[path]})
		}
	}
	return out
}
