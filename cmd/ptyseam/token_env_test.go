package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// The bearer token given in the server's environment does not reach a
// session: a model that prints its environment learns nothing it could
// sign in with.
func TestTokenFromTheEnvironmentReachesNoSession(t *testing.T) {
	token := randomToken()
	p := startHTTPWith(t, token, []string{tokenEnv + "=" + token})
	opened := p.call(t, "pty_open", map[string]any{"command": "bash"})
	id, _ := opened["sessionId"].(string)
	sent := p.call(t, "pty_send", map[string]any{"id": id, "data": `echo "token=[${` + tokenEnv + `-unset}]"; env | grep -c ` + tokenEnv})
	delta, _ := sent["delta"].(string)
	if !strings.Contains(delta, "token=[unset]") || !strings.Contains(delta, "\n0") {
		t.Fatalf("the session sees the server's token variable:\n%s", delta)
	}
}

// The server's own /proc entries still hold the environment it was
// started with: a session of the server's user cannot read them. The
// server runs as an unprivileged user (nobody, when the test runs as
// root, since root reads every process's entries).
func TestTokenInTheServersProcEntriesIsHidden(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	token := randomToken()
	dir := t.TempDir()
	bin := filepath.Join(dir, "ptyseam")
	data, err := os.ReadFile(serverBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	cmd := exec.Command(bin, "mcp", "--structured-results", "--http", addr, "--log-level", "error")
	cmd.Env = append(os.Environ(), tokenEnv+"="+token, "HOME="+dir)
	cmd.Dir = dir
	if os.Geteuid() == 0 {
		const nobody = 65534
		for d := dir; d != filepath.Dir(d) && d != os.TempDir(); d = filepath.Dir(d) {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chown(dir, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}
	p := startHTTPCmd(t, cmd, addr, token)
	id, _ := p.call(t, "pty_open", map[string]any{"command": "bash"})["sessionId"].(string)
	out, _ := p.call(t, "pty_send", map[string]any{"id": id,
		"data": `id -u; grep -zlsF '` + tokenEnv + "=" + token + `' /proc/[0-9]*/environ | sed 's/^/found\x20in /'; echo "scan""ned"`,
	})["delta"].(string)
	if !strings.Contains(out, "scanned") || strings.Contains(out, "\n0\n") {
		t.Fatalf("the scan did not run as an unprivileged user: %q", out)
	}
	if strings.Contains(out, "found in") {
		t.Fatalf("a process environment the session can read holds the token: %q", out)
	}
}
