package ssh

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestShellJoin(t *testing.T) {
	if got := ShellJoin([]string{"a=b", "x y"}); got != "'a=b' 'x y'" {
		t.Errorf("ShellJoin = %q", got)
	}
	// A program named like a reserved word runs as a command.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "done"), []byte("#!/bin/sh\necho ran \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", ShellJoin([]string{"done", "it's"}))
	cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin"}
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "ran it's\n" {
		t.Errorf("ShellJoin of a reserved word: %q (%v)", out, err)
	}
}

func TestEncodeModes(t *testing.T) {
	got := encodeModes(map[uint8]uint32{53: 1, 1: 3, 0: 9, 200: 1})
	want := "\x01\x00\x00\x00\x03\x35\x00\x00\x00\x01\x00"
	if got != want {
		t.Fatalf("encodeModes = %q, want %q", got, want)
	}
}
