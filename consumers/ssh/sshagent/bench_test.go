package sshagent_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshagent"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
)

// BenchmarkRemoteFloodThroughput compares the output throughput of a
// flood read through the remote backend (a session of the agent, started
// over a fresh ssh connection, the agent binary already in the far side's
// cache) with the OpenSSH client running the same
// command with a PTY into /dev/null, interleaved in one run: the ssh
// backend's BenchmarkFloodThroughput, one layer up. Both times run from
// the spawn (or the ssh command's start) to the end of the output.
// Metric ours/openssh is the ratio of throughputs; ms/spawn-ours is the
// part of ours spent before the session ran (dial, agent probe and start,
// the spawn call); the CPU metrics say where the machine's CPU went: the
// client's, the far side's (sshd and all it starts) and its parts.
func BenchmarkRemoteFloodThroughput(b *testing.B) {
	srv, tg, keyFile := sshagent.KeyTarget(b, sshdtest.Options{AccountCPU: true})
	kh := tg.HostKeys.KnownHostsFiles[0]
	opts := sshagent.Options{Binaries: map[string]string{platform: remotetest.Binary(b)}, Logger: slog.New(slog.DiscardHandler)}
	d := sshagent.New(ssh.NewBackend(ssh.BackendOptions{Logger: slog.New(slog.DiscardHandler)}), opts)
	defer d.Close()
	be := d.Backend("exec", remote.AgentExec)
	ctx := context.Background()
	// Upload the agent (and hash the local binary) once, outside the
	// timings, as a process does for its first connection to a host.
	if c, err := d.Connect(ctx, tg); err != nil {
		b.Fatalf("Connect: %v", err)
	} else {
		_ = c.Close()
	}

	const size = 32 << 20
	flood := "yes 012345678901234567890123456789012345678901234567890123456789012345678 | head -c " + strconv.Itoa(size)
	req := core.BackendRequest{Command: []string{"sh", "-c", flood}, Size: core.Size{Rows: 24, Cols: 80}, Options: tg}
	var ours, spawn, theirs time.Duration
	var oursUse, theirsUse sshdtest.Usage
	var far farSide
	if err := srv.WaitIdle(ctx); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// The agent and its ssh connection end with their last session:
		// every spawn dials, probes and starts the agent afresh.
		far0 := farCPU(b, srv)
		use0 := sshdtest.ProcessUsage()
		t0 := time.Now()
		s, err := be.Spawn(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		spawn += time.Since(t0)
		n, err := io.Copy(io.Discard, readFunc(s.Read))
		ours += time.Since(t0)
		oursUse = oursUse.Add(sshdtest.ProcessUsage().Sub(use0))
		if err != nil || n < size {
			b.Fatalf("read %d bytes, %v", n, err)
		}
		far.atEnd(ctx, b, srv)
		_ = s.Close(ctx)
		if err := srv.WaitIdle(ctx); err != nil {
			b.Fatal(err)
		}
		far.ours += farCPU(b, srv) - far0

		far0 = farCPU(b, srv)
		wall, use, err := srv.RunOpenSSH(ctx, keyFile, kh, flood)
		if err != nil {
			b.Fatal(err)
		}
		theirs += wall
		theirsUse = theirsUse.Add(use)
		if err := srv.WaitIdle(ctx); err != nil {
			b.Fatal(err)
		}
		far.theirs += farCPU(b, srv) - far0
	}
	b.StopTimer()
	mb := float64(size) * float64(b.N) / (1 << 20)
	perMB := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / mb }
	b.ReportMetric(mb/ours.Seconds(), "MB/s-ours")
	b.ReportMetric(mb/theirs.Seconds(), "MB/s-openssh")
	b.ReportMetric(theirs.Seconds()/ours.Seconds(), "ours/openssh")
	b.ReportMetric(float64(spawn.Milliseconds())/float64(b.N), "ms/spawn-ours")
	// The local client's CPU time per MB.
	b.ReportMetric(perMB(oursUse.CPU), "cpu-ms/MB-ours")
	b.ReportMetric(perMB(theirsUse.CPU), "cpu-ms/MB-openssh")
	// Voluntary context switches per MB: how often a thread of the client
	// went to sleep waiting (for the network, for another thread).
	b.ReportMetric(float64(oursUse.Waits)/mb, "waits/MB-ours")
	b.ReportMetric(float64(theirsUse.Waits)/mb, "waits/MB-openssh")
	// The far side, which shares the machine's two cores with the client
	// on loopback: all of it (sshd and every process it started, from the
	// connection to its end), and its parts at the end of our output:
	// the agent, the connection's sshd processes, and the flood (sh, yes
	// and head, the same command on both sides; with the start script's
	// uname and sha256sum, which the agent's shell ran before it became
	// the agent). The OpenSSH side's sshd is its far side less the flood.
	b.ReportMetric(perMB(far.ours), "far-cpu-ms/MB-ours")
	b.ReportMetric(perMB(far.theirs), "far-cpu-ms/MB-openssh")
	b.ReportMetric(perMB(far.agent), "agent-cpu-ms/MB")
	b.ReportMetric(perMB(far.sshd), "sshd-cpu-ms/MB-ours")
	b.ReportMetric(perMB(far.flood), "flood-cpu-ms/MB")
	b.ReportMetric(perMB(far.theirs-far.flood), "sshd-cpu-ms/MB-openssh")
	// The whole machine's CPU per MB (client and far side).
	b.ReportMetric(perMB(oursUse.CPU+far.ours), "all-cpu-ms/MB-ours")
	b.ReportMetric(perMB(theirsUse.CPU+far.theirs), "all-cpu-ms/MB-openssh")
}

// farSide sums the far side's CPU over a benchmark's runs.
type farSide struct {
	ours, theirs       time.Duration // all of it, per side
	agent, sshd, flood time.Duration // ours, by part, at the end of output
}

// atEnd adds the parts of the far side at the end of our output: the
// agent's own CPU, its reaped children's (the flood, once the agent has
// waited for it) and the connection's sshd processes'.
func (f *farSide) atEnd(ctx context.Context, b *testing.B, srv *sshdtest.Server) {
	b.Helper()
	ctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	for {
		procs := srv.Processes()
		agent := slices.IndexFunc(procs, func(p sshdtest.Process) bool { return strings.HasPrefix(p.Name, "agent-") })
		if agent < 0 {
			b.Fatalf("no agent among the far side's processes %+v", procs)
		}
		a := procs[agent]
		if slices.ContainsFunc(procs, func(p sshdtest.Process) bool { return p.PPID == a.PID }) {
			// The flood's processes have not all been waited for yet.
			select {
			case <-ctx.Done():
				b.Fatalf("the agent's children did not end: %+v", procs)
			case <-time.After(2 * time.Millisecond):
			}
			continue
		}
		f.agent += a.CPU
		f.flood += a.Children
		for _, p := range procs {
			if p.Name == "sshd" {
				f.sshd += p.CPU
			}
		}
		return
	}
}

// BenchmarkAgentConnect measures Dialer.Connect to a far side whose
// cache holds the agent, on a connection already dialed (held), to the
// agent's hello: what starting the agent costs beyond the dial.
func BenchmarkAgentConnect(b *testing.B) {
	srv := sshdtest.Start(b, sshdtest.Options{})
	kh := filepath.Join(b.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		b.Fatal(err)
	}
	tg := &ssh.Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: ssh.Auth{Password: srv.Password},
		HostKeys: ssh.HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	sb := ssh.NewBackend(ssh.BackendOptions{Logger: slog.New(slog.DiscardHandler)})
	d := sshagent.New(sb, sshagent.Options{Binaries: map[string]string{platform: remotetest.Binary(b)}, Logger: slog.New(slog.DiscardHandler)})
	defer d.Close()
	ctx := context.Background()
	release, err := sb.Hold(ctx, tg)
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	connect := func() {
		c, err := d.Connect(ctx, tg)
		if err != nil {
			b.Fatalf("Connect: %v", err)
		}
		_ = c.Close()
	}
	connect() // uploads the agent if the cache lacks it
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		connect()
	}
}

// farCPU returns the CPU time the server's side has used so far.
func farCPU(b *testing.B, srv *sshdtest.Server) time.Duration {
	b.Helper()
	d, err := srv.CPU()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// readFunc adapts a Read method to io.Reader.
type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }
