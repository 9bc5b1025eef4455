package gdbmi

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArgsAreArgv: Options.Args reach the program byte for byte as its
// argv, whatever they hold (shell syntax included: nothing is expanded,
// run or split).
func TestArgsAreArgv(t *testing.T) {
	pwned := filepath.Join(t.TempDir(), "pwned")
	args := []string{
		"plain", "two words", "$HOME", "${PATH}", "it's", `say "hi"`, "semi;colon",
		"*", "a|b", `back\slash`, "new\nline", "tab\there", "héllo ✓ 日本", "",
		"$(touch " + pwned + ")", "; touch " + pwned, "`id`", "!bang", "~", "a&b", ">out", "#hash", "--", "-x",
		" lead and trail ", "'", `"`, `\`,
	}
	c, svc := startGDB(t, "args", Options{Args: args})
	ctx := testCtx(t)
	pt := newProgramTap(t, c, svc)
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := pt.waitFor(ctx, "args done")
	if st.Reason != "exited-normally" {
		t.Errorf("stop %+v; program printed %q", st, out)
	}
	var want strings.Builder
	fmt.Fprintf(&want, "argc=%d\r\n", len(args))
	for i, a := range args {
		fmt.Fprintf(&want, "arg%d=[%s]\r\n", i+1, hex.EncodeToString([]byte(a)))
	}
	want.WriteString("args done")
	if !strings.HasSuffix(out, want.String()) {
		t.Errorf("program printed\n%s\nwant\n%s", out, want.String())
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("an argument ran a command")
	}
	// A second run gets the same argv (gdb keeps the arguments).
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitStopped(ctx); err != nil {
		t.Fatal(err)
	}
	if out := pt.waitFor(ctx, "args done"); !strings.HasSuffix(out, want.String()) {
		t.Errorf("second run printed\n%s", out)
	}
	// SetArgs replaces them, with the same guarantee; none clears them.
	for _, next := range [][]string{{"", "x y", "'$z'"}, nil} {
		if err := c.SetArgs(ctx, next...); err != nil {
			t.Fatal(err)
		}
		if err := c.Run(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitStopped(ctx); err != nil {
			t.Fatal(err)
		}
		var w strings.Builder
		fmt.Fprintf(&w, "argc=%d\r\n", len(next))
		for i, a := range next {
			fmt.Fprintf(&w, "arg%d=[%s]\r\n", i+1, hex.EncodeToString([]byte(a)))
		}
		if out := pt.waitFor(ctx, "args done"); !strings.HasSuffix(out, w.String()+"args done") {
			t.Errorf("after SetArgs(%q) the program printed\n%s", next, out)
		}
	}
}

// TestProgramKeepsItsShell: gdb runs with SHELL=/bin/sh (the quoting of
// the arguments is for that shell), and the program's environment gets
// the caller's SHELL back.
func TestProgramKeepsItsShell(t *testing.T) {
	c, _ := startGDB(t, "", Options{Env: []string{"SHELL=/opt/odd shell/fish"}})
	ctx := testCtx(t)
	if text, err := c.Console(ctx, "show environment SHELL"); err != nil || text != "SHELL = /opt/odd shell/fish\n" {
		t.Errorf("the program's SHELL: %q %v", text, err)
	}
}

// TestArgsWithNUL: an argument holding a NUL byte cannot be argv; Start
// and SetArgs refuse it with ErrInvalidArgs, and nothing is left running.
func TestArgsWithNUL(t *testing.T) {
	requireTools(t)
	svc := newService(t)
	ctx := testCtx(t)
	_, err := Start(ctx, svc, Options{Args: []string{"ok", "a\x00b"}})
	var se *StartError
	if !errors.As(err, &se) || se.Step != "options" || !errors.Is(err, ErrInvalidArgs) {
		t.Fatalf("Start: %v", err)
	}
	c, _ := startGDB(t, "", Options{})
	if err := c.SetArgs(ctx, "\x00"); !errors.Is(err, ErrInvalidArgs) {
		t.Fatalf("SetArgs: %v", err)
	}
}
