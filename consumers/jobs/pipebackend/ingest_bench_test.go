//go:build unix

package pipebackend

import (
	"context"
	"io"
	"log/slog"
	"os/exec"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// ingestCmd prints 32 MiB of 64-byte lines.
var ingestCmd = []string{"sh", "-c", "yes 'a line of build output, about sixty-four bytes long, give or ta' | head -c 33554432"}

const ingestBytes = 32 << 20

// BenchmarkIngest compares a pipe job whose output goes through the
// backend into a core session's scrollback with the same program read
// straight from an os/exec pipe, and reports the ratio of their times
// (the overhead of the backend, the session and the scrollback).
func BenchmarkIngest(b *testing.B) {
	var raw time.Duration
	b.Run("raw-pipe", func(b *testing.B) {
		b.SetBytes(ingestBytes)
		start := time.Now()
		for b.Loop() {
			cmd := exec.Command(ingestCmd[0], ingestCmd[1:]...)
			out, err := cmd.StdoutPipe()
			if err != nil {
				b.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, out); err != nil {
				b.Fatal(err)
			}
			_ = cmd.Wait()
		}
		raw = time.Since(start) / time.Duration(b.N)
	})
	b.Run("session", func(b *testing.B) {
		b.SetBytes(ingestBytes)
		svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer svc.Shutdown(context.Background())
		if _, err := Register(svc); err != nil {
			b.Fatal(err)
		}
		owner := core.NewOwner("bench")
		ctx := context.Background()
		start := time.Now()
		for b.Loop() {
			res, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Command: ingestCmd, NoInitialWait: true})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := svc.Wait(ctx, owner, res.ID); err != nil {
				b.Fatal(err)
			}
			if _, err := svc.Close(ctx, owner, res.ID, "bench"); err != nil {
				b.Fatal(err)
			}
		}
		d := time.Since(start) / time.Duration(b.N)
		if raw > 0 {
			b.ReportMetric(float64(d)/float64(raw), "session/raw")
		}
	})
}
