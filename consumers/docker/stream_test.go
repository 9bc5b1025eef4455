package docker

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A file copied into a running container runs there, and an exec without
// a TTY is one byte stream: stdin in, stdout out, stderr kept apart.
func TestCopyFileAndExecStream(t *testing.T) {
	b, d := newBackend(t)
	id := runContainer(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	script := filepath.Join(t.TempDir(), "echoer")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho started >&2\nwhile read -r l; do echo \"got $l\"; done\necho bye\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.CopyFile(ctx, id, script, "/opt/ptyseam-test/echoer", 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := b.ExecStream(ctx, id, "", nil, []string{"/opt/ptyseam-test/echoer"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := bufio.NewReader(st)
	for _, w := range []string{"one", "two"} {
		if _, err := st.Write([]byte(w + "\n")); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil || line != "got "+w+"\n" {
			t.Fatalf("read %q, %v", line, err)
		}
	}
	// The engine reads the program's stdout and stderr pipes apart and
	// muxes them as it reads: the stderr line written first may come after
	// the stdout lines.
	for !strings.Contains(st.Stderr(), "started") {
		if ctx.Err() != nil {
			t.Fatalf("stderr %q", st.Stderr())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
