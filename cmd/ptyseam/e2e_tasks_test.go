package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestRealMCPClientEverydayTasks runs tasks-client.mjs: the trial's
// everyday tasks (git rebase -i in vi, a Python class and pdb, a gdb
// watchpoint, an http.server, an installer with a password, ssh typed in
// a terminal, a loop that outlives its send, an interrupt) as a model
// does them on the server's default (text) results, each with its result
// bytes, needed bytes and no output returned twice.
func TestRealMCPClientEverydayTasks(t *testing.T) {
	node, dir := requireNode(t)
	for _, tool := range []string{"git", "vi", "python3", "gdb", "gcc", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("the tasks need %s (make deps installs it): %v", tool, err)
			}
			t.Skipf("the tasks need %s: %v", tool, err)
		}
	}
	bin := serverBinary(t)
	srv, key, kh := loopbackKey(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	t.Setenv("SSH_COMMAND", fmt.Sprintf("ssh -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s -i %s -p %d %s@%s",
		kh, key, srv.Port, srv.User, srv.Host))
	last := runNode(t, ctx, node, dir, "tasks-client.mjs", bin, t.TempDir(), strconv.Itoa(testenv.ReservePort(t)))
	var summary struct {
		OK    bool `json:"ok"`
		Tasks map[string]struct {
			Calls       int      `json:"calls"`
			ResultBytes int      `json:"resultBytes"`
			ReadBytes   int      `json:"readBytes"`
			NeededBytes int      `json:"neededBytes"`
			Ratio       float64  `json:"ratio"`
			WireRatio   float64  `json:"wireRatio"`
			PerCall     []string `json:"perCall"`
		} `json:"tasks"`
		All struct {
			Result int `json:"result"`
			Read   int `json:"read"`
			Needed int `json:"needed"`
		} `json:"all"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	for _, name := range slices.Sorted(maps.Keys(summary.Tasks)) {
		f := summary.Tasks[name]
		t.Logf("%-9s %2d calls, %5d bytes read (%5d on the wire), %5d needed, ratio %.2f (wire %.2f); per call, read/wire/needed: %s",
			name, f.Calls, f.ReadBytes, f.ResultBytes, f.NeededBytes, f.Ratio, f.WireRatio, strings.Join(f.PerCall, ", "))
	}
	needed := float64(max(summary.All.Needed, 1))
	t.Logf("all tasks: %d bytes read (%d on the wire), %d needed, ratio %.2f (wire %.2f)",
		summary.All.Read, summary.All.Result, summary.All.Needed, float64(summary.All.Read)/needed, float64(summary.All.Result)/needed)
	waitNoSurvivors(t)
}
