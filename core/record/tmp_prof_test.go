package record_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

func benchOne(b *testing.B, recd bool) {
	file := filepath.Join(b.TempDir(), "out.txt")
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	_ = os.WriteFile(file, bytes.Repeat(line, 16<<20/len(line)+1), 0o644)
	var svc *core.Service
	if recd {
		svc, _ = recorded(b, true)
	} else {
		svc = core.New(core.Options{})
		_ = localpty.Register(svc)
		b.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	}
	owner := core.NewOwner("bench")
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		s, _ := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", file}, NoInitialWait: true})
		_, _ = svc.Wait(ctx, owner, s.ID)
		_, _ = svc.Close(ctx, owner, s.ID, "done")
		cancel()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/16e3, "cpu-µs/MiB")
}

func BenchmarkTmpPlain(b *testing.B)    { benchOne(b, false) }
func BenchmarkTmpRecorded(b *testing.B) { benchOne(b, true) }
