package record_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core/record"
)

// A record folder that exists with room for others (0777) is tightened to
// 0700 before any recording goes in; a missing one is created 0700.
func TestRecordFolderIsTightenedTo0700(t *testing.T) {
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "a", "b")
	for _, dir := range []string{open, missing} {
		rec, err := record.New(record.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		rec.Close()
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s: mode %v, want 0700", dir, fi.Mode().Perm())
		}
	}
}

// A record folder of another user is refused: its owner could replace the
// recordings.
func TestRecordFolderOfAnotherUserIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a folder to another user needs root")
	}
	dir := filepath.Join(t.TempDir(), "theirs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, err := record.New(record.Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "owned by") {
		t.Fatalf("want a refusal naming the owner, got %v", err)
	}
}
