package gdbmi

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// FuzzShellWords checks the argument quoting against the shell gdb is
// made to use: /bin/sh reads shellWords(args) back as exactly args. Two
// arguments come from the fuzzer (NUL cannot be in argv; it is dropped).
func FuzzShellWords(f *testing.F) {
	f.Add("it's", "$HOME")
	f.Add("", "a b\nc")
	f.Add(`\'"`, "`id`;*|&")
	f.Fuzz(func(t *testing.T, a, b string) {
		args := []string{strings.ReplaceAll(a, "\x00", ""), strings.ReplaceAll(b, "\x00", "")}
		out, err := exec.Command(startupShell, "-c", `printf '%s\0' `+shellWords(args)).Output()
		if err != nil {
			t.Fatalf("sh: %v (args %q)", err, args)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(got) != len(args) || got[0] != args[0] || got[1] != args[1] {
			t.Fatalf("sh read %q back as %q", args, got)
		}
	})
}

// FuzzConsoleFence checks that the text between a Console call's markers
// is returned as the command's own and everything else as outside text, in
// order, whatever the texts hold.
func FuzzConsoleFence(f *testing.F) {
	f.Add("[New Thread 1]\n", "$1 = 42\n", "[Thread 1 exited]\n", true)
	f.Add("", "", "", false)
	f.Fuzz(func(t *testing.T, before, own, after string, closed bool) {
		fence := (&Client{}).newFence()
		if strings.Contains(before+own+after, "\x1e") {
			return // a marker byte inside the texts: not what gdb prints
		}
		raw := before + fence.begin + own
		if closed {
			raw += fence.end + after
		}
		gotOwn, outside := fence.split(raw)
		if gotOwn != own {
			t.Fatalf("own %q, want %q", gotOwn, own)
		}
		var want []string
		if before != "" {
			want = append(want, before)
		}
		if closed && after != "" {
			want = append(want, after)
		}
		if !bytes.Equal([]byte(strings.Join(outside, "\x00")), []byte(strings.Join(want, "\x00"))) {
			t.Fatalf("outside %q, want %q", outside, want)
		}
	})
}
