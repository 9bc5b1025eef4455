package gdbmi

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestFallbackToMI2 runs a gdb wrapper that, like gdb before 9.1, rejects
// -i=mi3; the client starts again with MI2.
func TestFallbackToMI2(t *testing.T) {
	requireTools(t)
	wrapper := filepath.Join(t.TempDir(), "oldgdb")
	script := "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -i=mi3) echo \"Interpreter \\`mi3' unrecognized\" >&2; exit 1;; esac; done\nexec gdb \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c, _ := startGDB(t, "simple", Options{GDB: wrapper})
	ctx := testCtx(t)
	if c.MIVersion() != "mi2" {
		t.Fatalf("MIVersion %q, want mi2", c.MIVersion())
	}
	bp, err := c.BreakInsert(ctx, "add")
	if err != nil || bp.Line != 9 {
		t.Fatalf("break in MI2: %+v %v", bp, err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil || st.Frame.Func != "add" {
		t.Fatalf("stop %+v %v", st, err)
	}
}

func TestForcedMI2(t *testing.T) {
	c, _ := startGDB(t, "", Options{Interpreter: "mi2"})
	if c.MIVersion() != "mi2" {
		t.Fatalf("MIVersion %q", c.MIVersion())
	}
	if v, err := c.Evaluate(testCtx(t), "2+2"); err != nil || v != "4" {
		t.Fatalf("%q %v", v, err)
	}
	if text, err := c.Console(testCtx(t), "print 2+3"); err != nil || text != "$1 = 5\n" {
		t.Fatalf("console in MI2: %q %v", text, err)
	}
}

func TestStartFailuresLeaveNothing(t *testing.T) {
	requireTools(t)
	svc := newService(t)
	ctx := testCtx(t)
	owner := core.NewOwner("t")
	_, err := Start(ctx, svc, Options{Owner: owner, GDB: "/nonexistent/gdb"})
	var se *StartError
	if !errors.As(err, &se) || !errors.Is(err, ErrExited) || !strings.Contains(se.Output, "nonexistent") {
		t.Fatalf("missing gdb: %v", err)
	}
	_, err = Start(ctx, svc, Options{Owner: owner, Program: "/nonexistent/program"})
	var me *MIError
	if !errors.As(err, &se) || !errors.As(err, &me) || se.Step != "set up" {
		t.Fatalf("missing program: %v", err)
	}
	if _, err := Start(ctx, svc, Options{Owner: owner, Interpreter: "mi1"}); !errors.As(err, &se) {
		t.Fatalf("bad interpreter: %v", err)
	}
	list, err := svc.List(owner)
	if err != nil || len(list) != 0 {
		t.Fatalf("sessions left behind: %+v %v", list, err)
	}
}
