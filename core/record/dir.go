package record

import (
	"fmt"
	"os"
)

// prepareDir makes dir the recorder's own folder: created 0700 when
// missing, refused when another user owns it (they could replace or read
// the recordings), and tightened to 0700 when it lets others in. The
// checks and the change go through one open descriptor of the folder, so
// a rename between them changes nothing.
func prepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Geteuid() {
		return fmt.Errorf("%s is owned by uid %d, not by this user (%d): record into a folder of this user", dir, uid, os.Geteuid())
	}
	if fi.Mode().Perm() != 0o700 {
		return f.Chmod(0o700)
	}
	return nil
}
