package gdbmi

import (
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
// is returned as the command's own and everything else, in order, as
// outside text, whatever the texts hold and however gdb's records split
// them (cut at every step-th byte).
func FuzzConsoleFence(f *testing.F) {
	f.Add("[New Thread 1]\n", "$1 = 42\n", "[Thread 1 exited]\n", true, uint8(0))
	f.Add("", "", "", false, uint8(1))
	f.Add("a\x1e", "\x1egdbmi", "x", true, uint8(3))
	f.Fuzz(func(t *testing.T, before, own, after string, closed bool, step uint8) {
		fence := (&Client{}).newFence()
		if strings.Contains(before+own+after, fence.id) {
			return // the texts spell the marker: not what gdb prints
		}
		raw := before + fence.begin + own
		if closed {
			raw += fence.end + after
		}
		var outside []string
		n := int(step)
		if n == 0 {
			n = len(raw) + 1
		}
		for i := 0; i < len(raw); i += n {
			outside = append(outside, fence.feed(raw[i:min(i+n, len(raw))])...)
		}
		gotOwn, rest := fence.finish()
		outside = append(outside, rest...)
		if gotOwn != own {
			t.Fatalf("own %q, want %q", gotOwn, own)
		}
		want := before
		if closed {
			want += after
		}
		if got := strings.Join(outside, ""); got != want {
			t.Fatalf("outside %q, want %q", got, want)
		}
		for _, o := range outside {
			if o == "" {
				t.Fatalf("an empty outside text")
			}
		}
	})
}
