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
	return mountKeeping("/tmp", p, cwd, func() error {
		opts := "mode=1777,size=" + strconv.FormatInt(p.TmpBytes, 10)
		if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			return fmt.Errorf("mounting the session's /tmp: %w", err)
		}
		return nil
	})
}

// mountKeeping runs mount, which hides root behind a new mount, keeping
// what p lists below root and the working directory cwd there: each is
// cloned before and mounted back at its place after, the read-only ones
// (cwd unless listed writable) read-only. It enters cwd again, as mounted
// back or as the new mount shows it.
func mountKeeping(root string, p Policy, cwd string, mount func() error) error {
	var keeps []clonedTree
	defer closeTrees(&keeps)
	for _, tp := range pathsBelow(root, p, cwd) {
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
	if err := mount(); err != nil {
		return err
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

// keptPath is a path below a mount's root that a policy lists, and whether
// it may be written.
type keptPath struct {
	path     string
	writable bool
}

// pathsBelow returns the paths below root that p lists, and cwd (read-only
// unless listed writable), cleaned, ancestors first, leaving out those an
// ancestor's mount shows as they are: below a writable one, or read-only
// below a read-only one.
func pathsBelow(root string, p Policy, cwd string) []keptPath {
	access := map[string]bool{}
	for _, list := range []struct {
		paths    []string
		writable bool
	}{{append([]string{cwd}, p.ReadOnly...), false}, {p.Writable, true}} {
		for _, path := range list.paths {
			if path = filepath.Clean(path); strings.HasPrefix(path, root+"/") {
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
	var out []keptPath
	for _, path := range paths {
		shown := false
		for _, kept := range out {
			if strings.HasPrefix(path, kept.path+"/") && (kept.writable || !access[path]) {
				shown = true
			}
		}
		if !shown {
			out = append(out, keptPath{path, access[path]})
		}
	}
	return out
}

// privateHome gives a session with a /tmp of its own a writable layer over
// its home directory (see sessionHome and mountPrivateHome), and lets it
// write there.
func privateHome(p *Policy) error {
	home := sessionHome(*p, os.Getenv("HOME"))
	if home == "" {
		return nil
	}
	if err := mountPrivateHome(*p, home); err != nil {
		return err
	}
	p.Writable = append(p.Writable, home)
	return nil
}

// sessionHome returns the home directory (home, the session's $HOME) to
// give the session a writable layer over, or "" to leave it as p says:
// one that is not an absolute directory, is "/", lies in /tmp (the
// session's own already) or in the session's /dev, /proc or /sys (made
// by the launcher, or the kernel's), is listed itself, or below a listed
// writable directory (the host's then), or whose path the overlay's
// options cannot carry. A client may set $HOME: a layer over another
// directory is still the session's alone.
func sessionHome(p Policy, home string) string {
	if home == "" || home[0] != '/' {
		return ""
	}
	home = filepath.Clean(home)
	if home == "/" || strings.ContainsAny(home, ",:\\") || !isDir(home) {
		return ""
	}
	for _, own := range []string{"/tmp", "/dev", "/proc", "/sys"} {
		if home == own || strings.HasPrefix(home, own+"/") {
			return ""
		}
	}
	for _, path := range p.ReadOnly {
		if filepath.Clean(path) == home {
			return ""
		}
	}
	for _, path := range p.Writable {
		if path = filepath.Clean(path); path == home || strings.HasPrefix(home, path+"/") {
			return ""
		}
	}
	return home
}

// mountPrivateHome lays a writable layer over home in the session's mount
// namespace: an overlay whose writes go to a tmpfs of p.TmpBytes of its
// own, detached once the overlay holds it, so that the session writes its
// caches and dot files where programs look for them, reads the host's
// files there, and leaves nothing on the host; the layer is gone with the
// session's last process. What p lists below home, and the working
// directory there, stay the host's (see mountKeeping).
func mountPrivateHome(p Policy, home string) error {
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("the session's working directory: %w", err)
	}
	fi, err := os.Stat(home)
	if err != nil {
		return err
	}
	st, _ := fi.Sys().(*unix.Stat_t)
	stage, err := os.MkdirTemp("/tmp", ".ptyseam-home-")
	if err != nil {
		return fmt.Errorf("staging the session's home layer: %w", err)
	}
	defer os.Remove(stage)
	opts := "mode=0700,size=" + strconv.FormatInt(p.TmpBytes, 10)
	if err := unix.Mount("tmpfs", stage, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting the session's home layer: %w", err)
	}
	defer unix.Unmount(stage, unix.MNT_DETACH)
	upper, work := filepath.Join(stage, "upper"), filepath.Join(stage, "work")
	for _, d := range []string{upper, work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	// The overlay's root takes the upper directory's owner and mode.
	if err := os.Chmod(upper, fi.Mode().Perm()); err != nil {
		return err
	}
	if st != nil {
		if err := os.Chown(upper, int(st.Uid), int(st.Gid)); err != nil {
			return err
		}
	}
	return mountKeeping(home, p, cwd, func() error {
		opts := "lowerdir=" + home + ",upperdir=" + upper + ",workdir=" + work
		if err := unix.Mount("overlay", home, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			return fmt.Errorf("mounting a writable layer over the session's home %s: %w", home, err)
		}
		return nil
	})
}
