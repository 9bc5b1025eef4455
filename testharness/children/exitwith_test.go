package main

import (
	"strconv"
	"syscall"
	"testing"
)

func TestParseExitSpec(t *testing.T) {
	for in, want := range map[string]struct {
		code int
		sig  syscall.Signal
	}{"0": {0, 0}, "3": {3, 0}, "255": {255, 0}, "SIGTERM": {0, syscall.SIGTERM}, "kill": {0, syscall.SIGKILL}, "HUP": {0, syscall.SIGHUP}} {
		code, sig, err := parseExitSpec(in)
		if err != nil || code != want.code || sig != want.sig {
			t.Errorf("parseExitSpec(%q) = %d, %v, %v", in, code, sig, err)
		}
	}
	for _, in := range []string{"", "-1", "256", "SIGSEGV", "SIGQUIT", "3x", "SIG", "+3", "-0", "007"} {
		if _, _, err := parseExitSpec(in); err == nil {
			t.Errorf("parseExitSpec(%q) accepted", in)
		}
	}
}

func FuzzParseExitSpec(f *testing.F) {
	f.Add("7")
	f.Add("sigterm")
	f.Fuzz(func(t *testing.T, s string) {
		code, sig, err := parseExitSpec(s)
		if err != nil {
			return
		}
		if sig == 0 && (code < 0 || code > 255 || strconv.Itoa(code) != s) {
			t.Fatalf("parseExitSpec(%q) = code %d", s, code)
		}
		if sig != 0 && code != 0 {
			t.Fatalf("parseExitSpec(%q) = code %d and signal %v", s, code, sig)
		}
	})
}
