package localpty

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestSpawnErrorsLeaveNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	mustf(t, os.WriteFile(file, nil, 0o644), "write")
	cases := []struct {
		name     string
		b        *Backend
		req      core.BackendRequest
		code     error
		wrapping error
	}{
		{"missing-dir", NewExec(ExecOptions{}), core.BackendRequest{Command: []string{"true"}, Dir: "/nonexistent/dir"}, core.ErrInvalidArgument, fs.ErrNotExist},
		{"dir-is-a-file", NewShell(ShellOptions{}), core.BackendRequest{Dir: file}, core.ErrInvalidArgument, syscall.ENOTDIR},
		{"command-not-found", NewExec(ExecOptions{}), core.BackendRequest{Command: []string{"no-such-program-ptyseam"}}, core.ErrSpawnFailed, exec.ErrNotFound},
		{"not-executable", NewExec(ExecOptions{}), core.BackendRequest{Command: []string{file}}, core.ErrSpawnFailed, fs.ErrPermission},
		{"shell-not-found", NewShell(ShellOptions{Shell: []string{"/nonexistent/bash"}}), core.BackendRequest{}, core.ErrSpawnFailed, fs.ErrNotExist},
		{"exec-without-command", NewExec(ExecOptions{}), core.BackendRequest{}, core.ErrInvalidArgument, nil},
		{"options-given", NewExec(ExecOptions{}), core.BackendRequest{Command: []string{"true"}, Options: 3}, core.ErrInvalidArgument, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fdsBefore := openFDs(t)
			leavesBefore := ownCgroupLeaves()
			c.req.Marker = testMarker(t)
			s, err := c.b.Spawn(context.Background(), c.req)
			if err == nil {
				_ = s.Close(context.Background())
				t.Fatal("spawn succeeded")
			}
			if !errors.Is(err, c.code) {
				t.Fatalf("error %v, want code %v", err, c.code)
			}
			if c.wrapping != nil && !errors.Is(err, c.wrapping) {
				t.Fatalf("error %v does not wrap %v", err, c.wrapping)
			}
			if after := openFDs(t); after != fdsBefore {
				t.Fatalf("%d open fds after a failed spawn, %d before", after, fdsBefore)
			}
			if after := ownCgroupLeaves(); !slices.Equal(after, leavesBefore) {
				t.Fatalf("cgroup leaves %v after a failed spawn, %v before", after, leavesBefore)
			}
			assertNoSurvivors(t, c.req.Marker)
		})
	}
}

func TestSpawnCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewExec(ExecOptions{}).Spawn(ctx, core.BackendRequest{Command: []string{"true"}})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, core.ErrSpawnFailed) {
		t.Fatalf("spawn with a cancelled ctx: %v", err)
	}
}

func TestRegisterWithService(t *testing.T) {
	svc := core.New(core.Options{})
	mustf(t, Register(svc), "register")
	got := svc.Backends()
	if !slices.Contains(got, TypeShell) || !slices.Contains(got, TypeExec) {
		t.Fatalf("backends %v, want shell and exec", got)
	}
	// A second registration fails on the duplicate "shell" type.
	if err := Register(svc); !errors.Is(err, core.ErrDuplicateBackend) {
		t.Fatalf("second Register: %v, want DUPLICATE_BACKEND", err)
	}
	// With only "exec" taken, Register undoes its "shell" registration.
	svc2 := core.New(core.Options{})
	_, err := svc2.Register(NewExec(ExecOptions{}))
	mustf(t, err, "register exec")
	if err := Register(svc2); !errors.Is(err, core.ErrDuplicateBackend) {
		t.Fatalf("Register over exec: %v", err)
	}
	if got := svc2.Backends(); slices.Contains(got, TypeShell) {
		t.Fatalf("backends %v: the shell registration was not undone", got)
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/dev/fd")
	if err != nil {
		t.Skipf("cannot count fds: %v", err)
	}
	return len(ents)
}

// ownCgroupLeaves lists this process's session leaves (none outside
// Linux).
func ownCgroupLeaves() []string {
	dir, err := findOwnCgroupDir()
	if err != nil {
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(dir, "ptyseam-"+strconv.Itoa(os.Getpid())+".*-*"))
	return m
}
