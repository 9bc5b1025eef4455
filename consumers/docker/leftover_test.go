package docker

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
			b.WriteString(" listed, but the engine's inspection does not know it")
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
