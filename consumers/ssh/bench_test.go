package ssh

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	gossh "golang.org/x/crypto/ssh"
)

// BenchmarkSecondSession compares opening a session on an existing
// connection with opening the first session over a fresh dial, against a
// real sshd, in the same run. Metric second/first is the ratio.
func BenchmarkSecondSession(b *testing.B) {
	srv := sshdtest.Start(b, sshdtest.Options{})
	kh := filepath.Join(b.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		b.Fatal(err)
	}
	tg := &Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: Auth{Password: srv.Password},
		HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	req := core.BackendRequest{Command: []string{"sleep", "30"}, Size: core.Size{Rows: 24, Cols: 80}, Options: tg}
	ctx := context.Background()
	var first, second time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		be := newBackend(nil)
		t0 := time.Now()
		s1, err := be.Spawn(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		s2, err := be.Spawn(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		first += t1.Sub(t0)
		second += t2.Sub(t1)
		b.StopTimer()
		startDrain(s1)
		startDrain(s2)
		_ = s2.Close(ctx)
		_ = s1.Close(ctx)
		b.StartTimer()
	}
	b.ReportMetric(float64(first.Microseconds())/float64(b.N)/1000, "ms/first")
	b.ReportMetric(float64(second.Microseconds())/float64(b.N)/1000, "ms/second")
	b.ReportMetric(float64(second)/float64(first), "second/first")
}

func startDrain(s core.BackendSession) {
	go func() { _, _ = io.Copy(io.Discard, readerFunc(s.Read)) }()
}

// BenchmarkFloodThroughput compares the output throughput of a remote
// flood read through the backend with the OpenSSH client running the same
// remote command into /dev/null (both with a PTY and a fresh connection),
// in the same run. Metric ours/openssh is the ratio of throughputs.
func BenchmarkFloodThroughput(b *testing.B) {
	signer, key := newKeyPair(b)
	srv := sshdtest.Start(b, sshdtest.Options{AuthorizedKeys: []gossh.PublicKey{signer.PublicKey()}, AccountCPU: true})
	dir := b.TempDir()
	kh := filepath.Join(dir, "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		b.Fatal(err)
	}
	keyFile := writeKeyTB(b, key, dir)
	const size = 32 << 20
	flood := "yes 012345678901234567890123456789012345678901234567890123456789012345678 | head -c " + strconv.Itoa(size)
	tg := &Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: Auth{KeyFiles: []string{keyFile}},
		HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	ctx := context.Background()
	var ours, theirs time.Duration
	var oursUse, theirsUse sshdtest.Usage
	var farOurs, farTheirs time.Duration // the far side's CPU (sshd and the flood)
	if err := srv.WaitIdle(ctx); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		be := newBackend(nil)
		far0 := farCPU(b, srv)
		use0 := sshdtest.ProcessUsage()
		t0 := time.Now()
		s, err := be.Spawn(ctx, core.BackendRequest{Command: []string{"sh", "-c", flood}, Size: core.Size{Rows: 24, Cols: 80}, Options: tg})
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, readerFunc(s.Read))
		ours += time.Since(t0)
		oursUse = oursUse.Add(sshdtest.ProcessUsage().Sub(use0))
		if err != nil || n < size {
			b.Fatalf("read %d bytes, %v", n, err)
		}
		_ = s.Close(ctx)
		if err := srv.WaitIdle(ctx); err != nil {
			b.Fatal(err)
		}
		farOurs += farCPU(b, srv) - far0

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
		farTheirs += farCPU(b, srv) - far0
	}
	b.StopTimer()
	mb := float64(size) * float64(b.N) / (1 << 20)
	b.ReportMetric(mb/ours.Seconds(), "MB/s-ours")
	b.ReportMetric(mb/theirs.Seconds(), "MB/s-openssh")
	b.ReportMetric(theirs.Seconds()/ours.Seconds(), "ours/openssh")
	// The client's own CPU time per MB (user and system), which the load
	// of a shared machine does not change as much as the wall clock.
	b.ReportMetric(float64(oursUse.CPU.Microseconds())/1000/mb, "cpu-ms/MB-ours")
	b.ReportMetric(float64(theirsUse.CPU.Microseconds())/1000/mb, "cpu-ms/MB-openssh")
	// Voluntary context switches per MB: how often a thread of the client
	// went to sleep waiting (for the network, for another thread).
	b.ReportMetric(float64(oursUse.Waits)/mb, "waits/MB-ours")
	b.ReportMetric(float64(theirsUse.Waits)/mb, "waits/MB-openssh")
	// The far side's CPU per MB (the connection's sshd processes and the
	// flood, which share the machine's two cores with the client on
	// loopback), and the whole machine's.
	b.ReportMetric(float64(farOurs.Microseconds())/1000/mb, "far-cpu-ms/MB-ours")
	b.ReportMetric(float64(farTheirs.Microseconds())/1000/mb, "far-cpu-ms/MB-openssh")
	b.ReportMetric(float64((oursUse.CPU+farOurs).Microseconds())/1000/mb, "all-cpu-ms/MB-ours")
	b.ReportMetric(float64((theirsUse.CPU+farTheirs).Microseconds())/1000/mb, "all-cpu-ms/MB-openssh")
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
