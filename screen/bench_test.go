package screen

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// floodBytes is the output of one flood: 80-byte lines.
const floodBytes = 32 << 20

// flood runs one flood session on svc and returns how long the service
// took to ingest it (spawn to exit, output drained).
func flood(b *testing.B, svc *core.Service, owner *core.Owner) (time.Duration, core.SessionID) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	script := `yes "$(printf '%079d' 0)" | head -c ` + strconv.Itoa(floodBytes)
	start := time.Now()
	res, err := svc.Spawn(ctx, owner, core.SpawnRequest{
		Type: "exec", NoInitialWait: true, Size: core.Size{Rows: 24, Cols: 80},
		Command: []string{"bash", "--noprofile", "--norc", "-c", script},
		Env:     []string{testTokenEnv + "=" + testToken},
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Wait(ctx, owner, res.ID); err != nil {
		b.Fatal(err)
	}
	return time.Since(start), res.ID
}

// BenchmarkIngestScreen measures how fast a session ingests a flood of
// output on a plain service and on one with a screen manager attached
// (nobody asks for a screen), in the same run, and reports the ratio; then
// the cost of the first snapshot after the flood (the emulator catches up
// on the 1 MiB ring).
func BenchmarkIngestScreen(b *testing.B) {
	plain := core.New(core.Options{})
	m := NewManager(Options{})
	withScreen := core.New(core.Options{OnSpawn: m.OnSpawn})
	m.Bind(withScreen)
	for _, svc := range []*core.Service{plain, withScreen} {
		if err := localpty.Register(svc); err != nil {
			b.Fatal(err)
		}
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = plain.Shutdown(ctx)
		_ = withScreen.Shutdown(ctx)
		m.Close()
	}()
	owner := core.NewOwner("bench")
	var tPlain, tScreen, tSnap time.Duration
	b.SetBytes(2 * floodBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Interleave and keep the best of three of each side, so that
		// noise from other processes hits both alike.
		bestPlain, bestScreen := time.Duration(1<<62), time.Duration(1<<62)
		for range 3 {
			d, id := flood(b, plain, owner)
			bestPlain = min(bestPlain, d)
			_, _ = plain.Close(context.Background(), owner, id, "bench")

			d, id = flood(b, withScreen, owner)
			bestScreen = min(bestScreen, d)
			st := time.Now()
			s, err := m.Snapshot(context.Background(), owner, id, SnapshotOptions{})
			tSnap += time.Since(st)
			if err != nil || len(s.Rows) == 0 {
				b.Fatalf("snapshot: %v", err)
			}
			_, _ = withScreen.Close(context.Background(), owner, id, "bench")
		}
		tPlain += bestPlain
		tScreen += bestScreen
	}
	b.StopTimer()
	mbps := func(d time.Duration) float64 { return float64(floodBytes) * float64(b.N) / d.Seconds() / 1e6 }
	b.ReportMetric(mbps(tPlain), "plain-MB/s")
	b.ReportMetric(mbps(tScreen), "screen-MB/s")
	b.ReportMetric(mbps(tScreen)/mbps(tPlain), "screen/plain")
	b.ReportMetric(float64(tSnap.Milliseconds())/float64(3*b.N), "first-snapshot-ms")
}

// BenchmarkEmulatorFeed measures the emulator alone on shell-like output
// (what a catch-up costs per MiB) against the query scanner that every
// session pays.
func BenchmarkEmulatorFeed(b *testing.B) {
	var chunk []byte
	for len(chunk) < 1<<20 {
		chunk = append(chunk, "\x1b[32muser@host\x1b[0m:~/src$ ls -l /usr/lib/x86_64-linux-gnu | head\r\n"...)
		chunk = append(chunk, "-rw-r--r-- 1 root root  12345 Jan  1 00:00 libexample.so.1.2.3\r\n"...)
	}
	b.Run("scanner", func(b *testing.B) {
		b.SetBytes(int64(len(chunk)))
		var s queryScanner
		for i := 0; i < b.N; i++ {
			s.scan(chunk)
		}
	})
	b.Run("emulator", func(b *testing.B) {
		b.SetBytes(int64(len(chunk)))
		t := newTerm(core.Size{Rows: 40, Cols: 160})
		p := startPump(t)
		defer p.stop()
		for i := 0; i < b.N; i++ {
			if err := t.write(chunk); err != nil {
				b.Fatal(err)
			}
		}
	})
}
