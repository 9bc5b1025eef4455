//go:build unix

package web

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A name the page serves that is not a regular file the server wrote (a
// symbolic link to another file, a hard link, a FIFO) is refused, without
// reading what it points to or waiting on it.
func TestRecordingsServeOnlyRegularFilesNotLinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(outside, []byte("outside-the-record-folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "pty_symlink.cast")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, "pty_hardlink.cast")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pty_fifo.cast"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, a, srv := newHubServer(t, Options{RecordDir: dir})
	c := client(t)
	if got := byLink(t, c, a.OneTimeLink(srv.URL)); got != http.StatusOK {
		t.Fatal(got)
	}
	for _, name := range []string{"pty_symlink.cast", "pty_hardlink.cast", "pty_fifo.cast"} {
		code, b := send(t, c, "GET", srv.URL+"/watch/recordings/"+name, nil)
		if code != http.StatusNotFound || strings.Contains(b, "outside-the-record-folder") {
			t.Fatalf("%s: %d %q", name, code, b)
		}
	}
	if _, b := send(t, c, "GET", srv.URL+"/watch/api/recordings", nil); strings.Contains(b, "pty_") {
		t.Fatalf("listing %s", b)
	}
}
