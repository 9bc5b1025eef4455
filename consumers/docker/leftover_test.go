package docker

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
)

// describeContainers says, for a failure message, what the engine knows
// of each container in ids: whether an inspection finds it, its session
// marker and test labels, state and creation time, and the engine's log
// lines that name it (the test daemon logs warnings and errors).
func describeContainers(t testing.TB, d *dockertest.Daemon, ids []string) string {
	t.Helper()
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "\n  container %s:", short(id))
		ins, err := d.Client.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{})
		switch {
		case cerrdefs.IsNotFound(err):
			_, serr := os.Stat(filepath.Join(d.Dir, "data", "containers", id))
			fmt.Fprintf(&b, " listed, but the engine's inspection does not know it (a containerd shim runs for it: %v, its directory is there: %v)", shimRuns(id), serr == nil)
		case err != nil:
			fmt.Fprintf(&b, " inspection failed: %v", err)
		default:
			c := ins.Container
			fmt.Fprintf(&b, " created %s, marker %q, test %q", c.Created, c.Config.Labels[LabelSession], c.Config.Labels[testLabel])
			if c.State != nil {
				fmt.Fprintf(&b, ", status %s (dead %v, removal in progress %v, error %q, started %s, finished %s)",
					c.State.Status, c.State.Dead, c.State.Status == "removing", c.State.Error, c.State.StartedAt, c.State.FinishedAt)
			}
		}
		for _, line := range engineLogLines(d, short(id)) {
			b.WriteString("\n    engine: " + line)
		}
	}
	return b.String()
}

// engineLogLines returns the lines of d's log that hold s (at most 20).
func engineLogLines(d *dockertest.Daemon, s string) []string {
	f, err := os.Open(filepath.Join(d.Dir, "dockerd.log"))
	if err != nil {
		return []string{err.Error()}
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), s) && len(lines) < 20 {
			lines = append(lines, sc.Text())
		}
	}
	return lines
}

// staleInfoBound bounds staleListEntry's call to the engine.
const staleInfoBound = 20 * time.Second

// staleListEntry reports whether the engine lists a container (id) that
// it has removed, with nothing of it left: no containerd shim runs for it
// and its directory is gone.
//
// dockerd 20.10 can list a container it has removed: on a loaded host the
// exit of a container's program can reach the engine after a forced
// removal has deleted the container (its kill timed out, the runtime's
// shim was killed), and handling that exit saves the container into the
// engine's list again. No API call can remove such an entry, and
// inspecting it can hang (seen for minutes under CI's load): a test that
// counts the containers left behind counts what the engine still has, a
// process or a directory, not its list. Close's own check is the
// inspection.
func staleListEntry(t testing.TB, cli *client.Client, id string) bool {
	t.Helper()
	if shimRuns(id) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), staleInfoBound)
	defer cancel()
	info, err := cli.Info(ctx, client.InfoOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(info.Info.DockerRootDir, "containers", id)); !os.IsNotExist(err) {
		return false
	}
	t.Logf("the engine lists container %s, which it removed (no shim or directory): not counted", short(id))
	return true
}

// shimRuns reports whether a containerd shim runs for the container id.
func shimRuns(id string) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		cmd, _ := os.ReadFile(dir + "/cmdline")
		if bytes.Contains(cmd, []byte("containerd-shim")) && bytes.Contains(cmd, []byte(id)) {
			return true
		}
	}
	return false
}
