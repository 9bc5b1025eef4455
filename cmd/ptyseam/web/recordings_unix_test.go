//go:build unix

package web

import (
	"io"
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
	if got := status(t, c, "GET", a.OneTimeLink(srv.URL), nil); got != http.StatusOK {
		t.Fatal(got)
	}
	for _, name := range []string{"pty_symlink.cast", "pty_hardlink.cast", "pty_fifo.cast"} {
		resp, err := c.Get(srv.URL + "/watch/recordings/" + name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || strings.Contains(string(b), "outside-the-record-folder") {
			t.Fatalf("%s: %d %q", name, resp.StatusCode, b)
		}
	}
	resp, err := c.Get(srv.URL + "/watch/api/recordings")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(b), "pty_") {
		t.Fatalf("listing %s", b)
	}
}
