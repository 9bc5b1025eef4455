package shellrun_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

func newService(t *testing.T) *core.Service {
	t.Helper()
	return testharness.NewLocalService(t, core.Options{})
}

func run(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, cmd string) shellrun.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	res, err := shellrun.Run(ctx, svc, owner, id, cmd, shellrun.Options{})
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd, err)
	}
	return res
}

// exercise runs the same checks on any shell session.
func exercise(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID) {
	if r := run(t, svc, owner, id, "echo hello; false"); r.Output != "hello\n" || r.ExitCode != 1 {
		t.Fatalf("result %+v", r)
	}
	// State persists between runs.
	run(t, svc, owner, id, "cd /tmp && X_VAR='kept value'")
	if r := run(t, svc, owner, id, `printf '%s|%s' "$(pwd)" "$X_VAR"`); r.Output != "/tmp|kept value" || r.ExitCode != 0 {
		t.Fatalf("result %+v", r)
	}
	// Output that looks like markers and prompts does not confuse it.
	tricky := `printf 'PTYSEAM_E_0000 0\nPTYSEAM_B_x\n$ \n# done\n'; exit_code_is() { return 3; }; exit_code_is`
	if r := run(t, svc, owner, id, tricky); r.Output != "PTYSEAM_E_0000 0\nPTYSEAM_B_x\n$ \n# done\n" || r.ExitCode != 3 {
		t.Fatalf("result %+v", r)
	}
	// A syntax error is an exit code, and the shell is still usable.
	if r := run(t, svc, owner, id, "if then fi ("); r.ExitCode != 2 {
		t.Fatalf("syntax error result %+v", r)
	}
	if r := run(t, svc, owner, id, "printf 'a\\nb\\n'; (exit 42)"); r.Output != "a\nb\n" || r.ExitCode != 42 {
		t.Fatalf("result %+v", r)
	}
	// Large output.
	if r := run(t, svc, owner, id, "seq 1 50000"); !strings.HasSuffix(r.Output, "\n49999\n50000\n") || strings.Count(r.Output, "\n") != 50000 {
		t.Fatalf("seq: %d lines", strings.Count(r.Output, "\n"))
	}
}

func TestRunLocalShell(t *testing.T) {
	svc := newService(t)
	owner := core.NewOwner("test")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, svc, owner, sp.ID)
	// The session ending mid-run is ErrNoFrame.
	_, err = shellrun.Run(ctx, svc, owner, sp.ID, "exit 0", shellrun.Options{})
	if err != shellrun.ErrNoFrame {
		t.Fatalf("err = %v", err)
	}
}

func TestRunRemoteShell(t *testing.T) {
	srv, err := sshtest.NewServer(sshtest.Config{Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	svc := newService(t)
	if _, err := svc.Register(sshpkg.NewBackend(sshpkg.BackendOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})); err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("test")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: sshpkg.Type, Options: &sshpkg.Target{
		Host: srv.Host(), Port: srv.Port(), User: "test", Auth: sshpkg.Auth{Password: "pw"},
		HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{kh}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, svc, owner, sp.ID)
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
}
