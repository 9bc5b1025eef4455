package remote_test

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/remote"
)

// connectTo runs argv as the far side and connects to it.
func connectTo(t *testing.T, argv ...string) (*remote.Conn, error) {
	t.Helper()
	p := startProc(t, argv...)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := remote.Connect(ctx, p.stream)
	if err == nil {
		t.Cleanup(func() { _ = c.Close() })
	}
	return c, err
}

func wantAgentError(t *testing.T, err error, kind error, output string) {
	t.Helper()
	var ae *remote.AgentError
	if !errors.Is(err, kind) || !errors.As(err, &ae) || !strings.Contains(ae.Output+ae.Msg, output) {
		t.Fatalf("Connect: %v; want an *AgentError matching %v that mentions %q", err, kind, output)
	}
	t.Logf("%v", err)
}

// TestConnectAgentMissing: a far side without the agent (the shell
// reports it missing and exits) fails with ErrAgentMissing carrying what
// the shell said.
func TestConnectAgentMissing(t *testing.T) {
	_, err := connectTo(t, "sh", "-c", "exec /nonexistent/ptyseam agent 2>&1")
	wantAgentError(t, err, remote.ErrAgentMissing, "nonexistent")
}

// TestConnectSkipsPreamble: lines a login script prints before the
// agent's hello are skipped.
func TestConnectSkipsPreamble(t *testing.T) {
	c, err := connectTo(t, "sh", "-c", `echo "Welcome to the far side"; echo; exec "$0" agent`, agentBinary(t))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if info := c.Info(); info.OS != runtime.GOOS || info.Arch != runtime.GOARCH || info.Protocol != remote.ProtocolVersion || info.PID <= 0 {
		t.Fatalf("Info %+v", info)
	}
}

// TestConnectAgentArch: an agent binary of another architecture fails
// with ErrAgentArch (the kernel refuses to run it: Exec format error).
func TestConnectAgentArch(t *testing.T) {
	other := "arm64"
	if runtime.GOARCH == "arm64" {
		other = "amd64"
	}
	// The agent binary with its ELF header's machine field set to the
	// other architecture: the kernel refuses it as it refuses a real one.
	elf, err := os.ReadFile(agentBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	machine := map[string]uint16{"arm64": 0xb7, "amd64": 0x3e}[other]
	binary.LittleEndian.PutUint16(elf[18:20], machine)
	bin := filepath.Join(t.TempDir(), "ptyseam-"+other)
	if err := os.WriteFile(bin, elf, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/proc/sys/fs/binfmt_misc/qemu-" + map[string]string{"arm64": "aarch64", "amd64": "x86_64"}[other]); err == nil {
		t.Skipf("this machine runs %s binaries through qemu", other) // never the case in CI (scripts/deps.sh installs no emulator)
	}
	_, err = connectTo(t, "sh", "-c", `exec "$0" agent 2>&1`, bin)
	wantAgentError(t, err, remote.ErrAgentArch, "Exec format error")
}

// TestConnectAgentVersion: an agent whose protocol versions do not meet
// the host's fails with ErrAgentVersion, both for one too old and one too
// new, and the agent is told why.
func TestConnectAgentVersion(t *testing.T) {
	for _, tc := range []struct{ name, hello, want string }{
		{"too old", `{"min":0,"max":0,"os":"linux","arch":"amd64"}`, "the agent is too old"},
		{"too new", `{"min":99,"max":100,"os":"linux","arch":"amd64"}`, "newer than this host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A far side that says an old agent's hello and prints the
			// host's answer to stderr.
			script := `printf 'ptyseam-agent %s\n' "$0"; read -r answer; echo "$answer" >&2`
			_, err := connectTo(t, "sh", "-c", script, tc.hello)
			wantAgentError(t, err, remote.ErrAgentVersion, tc.want)
		})
	}
}
