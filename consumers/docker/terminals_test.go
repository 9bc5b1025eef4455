package docker

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestTerminalsAgent runs the seam conformance suite on a core.Service
// whose docker sessions run on the agent inside a new container each;
// after every sub-test no session container is left.
func TestTerminalsAgent(t *testing.T) {
	t.Parallel()
	b, d := newAgentBackend(t)
	tg, bin := childrenTarget(t, d)
	testTerminalsContainer(t, b, d, tg, bin)
}

// TestTerminalsAgentExec runs the same suite with each session on an
// agent started in one running container; after every sub-test only the
// container's own program runs there.
func TestTerminalsAgentExec(t *testing.T) {
	t.Parallel()
	b, d := newAgentBackend(t)
	testTerminalsExec(t, b, d)
}

// testTerminalsContainer runs the suite with target tg, one new container
// per session.
func testTerminalsContainer(t *testing.T, b *Backend, d *dockertest.Daemon, tg *Target, bin string) {
	// Tests run in parallel on one daemon: each checks its own
	// containers.
	tg.Labels = map[string]string{testLabel: t.Name()}
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		Children: bin,
		Request: func(argv []string) core.SpawnRequest {
			return core.SpawnRequest{Type: Type, Command: argv, Options: tg}
		},
		New: func(t *testing.T) core.Terminals {
			before := labelledContainers(t, d.Client, tg.Labels[testLabel])
			t.Cleanup(func() { // after the service's shutdown
				if after := labelledContainers(t, d.Client, tg.Labels[testLabel]); !sameSet(before, after) {
					t.Errorf("session containers after the sub-test: %v, before it: %v", after, before)
				}
			})
			return remotetest.NewService(t, b)
		},
	})
}

// testTerminalsExec runs the suite with every session an exec in one
// running container.
func testTerminalsExec(t *testing.T, b *Backend, d *dockertest.Daemon) {
	bin := testharness.BuildChildren(t)
	cid := runContainer(t, d, Mount{Source: filepath.Dir(bin), Target: filepath.Dir(bin), ReadOnly: true})
	tg := &Target{Container: cid}
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		Children: bin,
		Request: func(argv []string) core.SpawnRequest {
			return core.SpawnRequest{Type: Type, Command: argv, Options: tg}
		},
		New: func(t *testing.T) core.Terminals {
			t.Cleanup(func() { // after the service's shutdown
				if left := sessionProcesses(t, d, cid); len(left) > 0 {
					t.Errorf("processes left in the container after the sub-test:\n%s", strings.Join(left, "\n"))
				}
			})
			return remotetest.NewService(t, b)
		},
	})
}

// sessionProcesses lists the container's processes other than its own
// program (sleep 100000 under docker-init).
func sessionProcesses(t *testing.T, d *dockertest.Daemon, cid string) []string {
	var left []string
	for _, line := range strings.Split(strings.TrimSpace(top(t, d.Client, cid)), "\n") {
		if line == "" || strings.HasSuffix(line, "sleep 100000") || strings.Contains(line, "docker-init") {
			continue
		}
		left = append(left, line)
	}
	return left
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestTerminalsRelay runs the suite on relayed sessions, one new
// container each.
func TestTerminalsRelay(t *testing.T) {
	t.Parallel()
	b, d := newBackend(t)
	tg, bin := childrenTarget(t, d)
	testTerminalsContainer(t, b, d, tg, bin)
}

// TestTerminalsRelayExec runs the suite on relayed exec sessions in one
// running container.
func TestTerminalsRelayExec(t *testing.T) {
	t.Parallel()
	b, d := newBackend(t)
	testTerminalsExec(t, b, d)
}
