package sshagent

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
)

// BenchmarkAgentStartSteps times the steps of a spawn on a fresh
// connection (what BenchmarkRemoteFloodThroughput's ms/spawn-ours sums),
// each on its own: ms/dial (TCP, key exchange, public key
// authentication), ms/exec (opening the exec channel and starting the
// start script), ms/hello (from there to the agent's hello: the script's
// uname and sha256sum, the agent's exec and start), ms/spawn (a session's
// spawn call on the agent), and for comparison on the same connection
// ms/exec-true (an exec channel running `true`, to its exit) and
// ms/exec-sha256 (one running the start script's hash of the cached
// agent).
func BenchmarkAgentStartSteps(b *testing.B) {
	_, tg, _ := KeyTarget(b, sshdtest.Options{})
	platform := runtime.GOOS + "/" + runtime.GOARCH
	sb := ssh.NewBackend(ssh.BackendOptions{Logger: slog.New(slog.DiscardHandler)})
	d := New(sb, Options{Binaries: map[string]string{platform: remotetest.Binary(b)}, Logger: slog.New(slog.DiscardHandler)})
	defer d.Close()
	ctx := context.Background()
	if c, err := d.Connect(ctx, tg); err != nil { // uploads the agent
		b.Fatalf("Connect: %v", err)
	} else {
		_ = c.Close()
	}
	bins := d.binaries()
	script := startScript(bins)
	cached := `"${XDG_CACHE_HOME:-$HOME/.cache}/ptyseam/` + agentName(bins[0].sum) + `"`
	run := func(command string) time.Duration {
		t0 := time.Now()
		st, err := sb.Stream(ctx, tg, command)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, st)
		<-st.Exited()
		d := time.Since(t0)
		_ = st.Close()
		return d
	}
	var dial, exec, hello, spawn, execTrue, execHash time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		release, err := sb.Hold(ctx, tg)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		st, err := sb.Stream(ctx, tg, script)
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		c, err := remote.Connect(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		s, err := c.Spawn(ctx, remote.AgentExec, core.BackendRequest{Command: []string{"true"}, Size: core.Size{Rows: 24, Cols: 80}})
		if err != nil {
			b.Fatal(err)
		}
		t4 := time.Now()
		dial, exec, hello, spawn = dial+t1.Sub(t0), exec+t2.Sub(t1), hello+t3.Sub(t2), spawn+t4.Sub(t3)
		_ = s.Close(ctx)
		_ = c.Close()
		execTrue += run("true")
		execHash += run("sha256sum " + cached)
		release()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(dial), "ms/dial")
	b.ReportMetric(ms(exec), "ms/exec")
	b.ReportMetric(ms(hello), "ms/hello")
	b.ReportMetric(ms(spawn), "ms/spawn")
	b.ReportMetric(ms(execTrue), "ms/exec-true")
	b.ReportMetric(ms(execHash), "ms/exec-sha256")
}
