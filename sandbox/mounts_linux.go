package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// devNodes are the device files of the host every session's /dev holds.
var devNodes = []string{"null", "zero", "full", "random", "urandom", "tty"}

// devLinks are the symbolic links of a session's /dev.
var devLinks = [][2]string{
	{"ptmx", "pts/ptmx"},
	{"fd", "/proc/self/fd"},
	{"stdin", "/proc/self/fd/0"},
	{"stdout", "/proc/self/fd/1"},
	{"stderr", "/proc/self/fd/2"},
}

// isolate builds the session's view of /dev and /proc in the mount
// namespace the server started the launcher in, before Landlock (which
// forbids mounting) is applied:
//
//   - mount events stop propagating to the host (the namespace's mounts
//     become private);
//   - /dev becomes a read-only tmpfs holding the harmless devices
//     (devNodes, bound from the host's), the paths under /dev that p
//     lists, and, at /dev/pts, the session's own terminal file system
//     (the detached devpts mount the server passed as devpts): no host
//     terminal, console or disk is there, nor another session's terminal;
//   - /proc becomes a proc mount of its own with hidepid=ptraceable: a
//     process sees only the processes it may trace, and Landlock lets a
//     sandboxed process trace only those of its own sandbox, so neither
//     the server nor another session appears;
//   - with p.TmpBytes, /tmp becomes a tmpfs of its own (see
//     mountPrivateTmp).
//
// Any failure is returned; the launcher then refuses to run the program.
func isolate(p Policy) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the session's mounts private: %w", err)
	}
	// Clone the device files before the new /dev hides them.
	var devs []clonedTree
	defer closeTrees(&devs)
	for _, name := range append(append([]string(nil), devNodes...), devPaths(p)...) {
		if _, err := cloneTree(&devs, "/dev/"+name); err != nil {
			return err
		}
	}
	if err := unix.Mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("mounting the session's /dev: %w", err)
	}
	for _, c := range devs {
		if err := c.attach(); err != nil {
			return err
		}
	}
	if err := os.Mkdir("/dev/pts", 0o755); err != nil {
		return err
	}
	if err := unix.MoveMount(p.Devpts, "", unix.AT_FDCWD, "/dev/pts", unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("attaching the session's terminal file system: %w", err)
	}
	_ = unix.Close(p.Devpts)
	for _, l := range devLinks {
		if err := os.Symlink(l[1], "/dev/"+l[0]); err != nil {
			return err
		}
	}
	if err := unix.Mount("", "/dev", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("making the session's /dev read-only: %w", err)
	}
	// hidepid=ptraceable needs a proc mount of its own (Linux 5.8+); an
	// older kernel refuses the option, and the session with it.
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "hidepid=ptraceable"); err != nil {
		return fmt.Errorf("mounting the session's /proc (hidepid=ptraceable, Linux 5.8+): %w", err)
	}
	if p.TmpBytes > 0 {
		return mountPrivateTmp(p)
	}
	return nil
}

// devPaths returns the names under /dev that p lists beyond the default
// devices and the terminal file system (a device the deployer grants,
// such as /dev/kvm), so the session's /dev holds them too.
func devPaths(p Policy) []string {
	var names []string
	for _, path := range append(append([]string(nil), p.ReadOnly...), p.Writable...) {
		rel, ok := strings.CutPrefix(filepath.Clean(path), "/dev/")
		if !ok || strings.Contains(rel, "/") || rel == "pts" || rel == "ptmx" {
			continue
		}
		isDefault := false
		for _, n := range append(append([]string(nil), devNodes...), linkNames()...) {
			isDefault = isDefault || n == rel
		}
		if !isDefault {
			names = append(names, rel)
		}
	}
	return names
}

func linkNames() []string {
	var names []string
	for _, l := range devLinks {
		names = append(names, l[0])
	}
	return names
}

// clonedTree is a detached copy of the mount tree at path, taken before a
// new mount hides path and attached at path again after.
type clonedTree struct {
	path string
	dir  bool
	fd   int
}

// cloneTree appends a copy of the mount tree at path (its submounts
// included) to trees and reports it; a path that does not exist grants
// nothing and is left out.
func cloneTree(trees *[]clonedTree, path string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, nil
	}
	fd, err := unix.OpenTree(unix.AT_FDCWD, path, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return false, fmt.Errorf("cloning %s: %w", path, err)
	}
	*trees = append(*trees, clonedTree{path, fi.IsDir(), fd})
	return true, nil
}

// attach mounts the copy at its path, making the empty file or directory
// it covers (and the directories above it) unless they are there.
func (c clonedTree) attach() error {
	if _, err := os.Lstat(c.path); err != nil {
		if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
			return err
		}
		if err := makeTarget(c.path, c.dir); err != nil {
			return err
		}
	}
	if err := unix.MoveMount(c.fd, "", unix.AT_FDCWD, c.path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("mounting %s in the session's view: %w", c.path, err)
	}
	return nil
}

// closeTrees closes the copies' descriptors (attached copies stay mounted).
func closeTrees(trees *[]clonedTree) {
	for _, c := range *trees {
		_ = unix.Close(c.fd)
	}
}

// makeTarget creates the empty file or directory a mount covers.
func makeTarget(path string, dir bool) error {
	if dir {
		return os.Mkdir(path, 0o755)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}
