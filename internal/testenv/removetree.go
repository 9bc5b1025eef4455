package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// RemoveTree removes dir and everything in it, like os.RemoveAll. When os.RemoveAll fails it
// removes the entries one by one, deepest first, with os.Remove: under
// Wine 8, which runs the Windows test binaries, os.RemoveAll fails
// ("Invalid function": Wine lacks the file disposition call it uses on
// Windows) where os.Remove works.
func RemoveTree(dir string) error {
	err := os.RemoveAll(dir)
	if err == nil {
		return nil
	}
	var paths []string
	_ = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, werr error) error {
		if werr == nil {
			paths = append(paths, p)
		}
		return nil
	})
	slices.Reverse(paths) // children before their directory
	for _, p := range paths {
		_ = os.Remove(p)
	}
	if _, serr := os.Lstat(dir); os.IsNotExist(serr) {
		return nil
	}
	return err
}
