package k8s

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

var agentBuild struct {
	once      sync.Once
	dir, path string
	err       error
}

// agentBinary builds a static ptyseam binary once per test process: the
// agent the backend copies into pods.
func agentBinary(t testing.TB) string {
	t.Helper()
	agentBuild.once.Do(func() {
		dir, err := testharness.BuildDir("k8s-agent-")
		if err != nil {
			agentBuild.err = err
			return
		}
		path := filepath.Join(dir, "ptyseam")
		cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", path, "github.com/ptyseam/ptyseam/cmd/ptyseam")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
		if out, err := cmd.CombinedOutput(); err != nil {
			agentBuild.err = errors.New("go build cmd/ptyseam: " + err.Error() + "\n" + string(out))
			return
		}
		agentBuild.dir, agentBuild.path = dir, path
	})
	if agentBuild.err != nil {
		t.Fatal(agentBuild.err)
	}
	return agentBuild.path
}

func removeAgentBinary() {
	if agentBuild.dir != "" {
		_ = os.RemoveAll(agentBuild.dir)
	}
}
