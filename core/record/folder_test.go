package record_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptyseam/ptyseam/core/record"
)

// The record folder is private to the server's user, whether the recorder
// made it or found it open to everyone.
func TestRecordFolderIsPrivate(t *testing.T) {
	made := filepath.Join(t.TempDir(), "new")
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{made, open} {
		rec, err := record.New(record.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		rec.Close()
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o700 {
			t.Errorf("%s has mode %o, want 700", dir, perm)
		}
	}
}
