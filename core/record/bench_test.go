package record_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// BenchmarkIngest measures what recording costs a session's ingest: each
// iteration runs a session printing 16 MiB of text lines twice, on a plain
// service and on a service a Recorder records (the path `--record-dir`
// and pty_open's record take: OnSpawn's tap and OnEvent), one after the
// other (each first in turn) so that a loaded machine weighs on both
// alike. The recorded run counts until the recording is complete on disk
// (Recorder.Wait), not only until the session's output ended.
//
// It reports the throughput of each (plain-MB/s, recorded-MB/s), their
// ratio (recorded/plain: 1 is free, 0.9 is a 10% cost), and the CPU time
// of this process per MiB of each (the reader, scrollback, taps and the
// recorder: on a busy machine wall time measures the neighbours too, CPU
// time the work), the busy CPU time of the whole machine per MiB of
// each where the system tells it (Linux: the child, the terminal's
// kernel workers and the file's write-back too, which the process's own
// time leaves out; on a quiet machine it is the whole cost), and the bytes and allocations of the process per
// session of each. Compare several runs: -count 6 -benchtime 4x.
func BenchmarkIngest(b *testing.B) {
	file, fileSize := ingestFile(b)
	mib := float64(fileSize) / (1 << 20)
	plain := plainService(b)
	recSvc, rec := recorded(b, true)
	owner := core.NewOwner("bench")

	var plainMem, recMem runtime.MemStats      // allocations, summed over runs
	var plainMachine, recMachine time.Duration // the machine's busy CPU, summed
	run := func(svc *core.Service, rec *record.Recorder) (wall, cpu time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		defer func() {
			runtime.ReadMemStats(&m1)
			sum := &plainMem
			if rec != nil {
				sum = &recMem
			}
			sum.TotalAlloc += m1.TotalAlloc - m0.TotalAlloc
			sum.Mallocs += m1.Mallocs - m0.Mallocs
		}()
		busy0, cpu0, t0 := machineBusy(), cpuTime(), time.Now()
		ingestOnce(ctx, b, svc, rec, owner, file)
		wall, cpu = time.Since(t0), cpuTime()-cpu0
		if rec != nil {
			recMachine += machineBusy() - busy0
		} else {
			plainMachine += machineBusy() - busy0
		}
		return wall, cpu
	}

	var plainWall, recWall, plainCPU, recCPU time.Duration
	b.ResetTimer()
	for i := range b.N {
		// Each goes first in turn: neither always meets the machine as
		// the other left it.
		for j := range 2 {
			if (i+j)%2 == 0 {
				w, c := run(plain, nil)
				plainWall, plainCPU = plainWall+w, plainCPU+c
			} else {
				w, c := run(recSvc, rec)
				recWall, recCPU = recWall+w, recCPU+c
			}
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(mib*1.048576*n/plainWall.Seconds(), "plain-MB/s")
	b.ReportMetric(mib*1.048576*n/recWall.Seconds(), "recorded-MB/s")
	b.ReportMetric(plainWall.Seconds()/recWall.Seconds(), "recorded/plain")
	b.ReportMetric(float64(plainCPU.Microseconds())/n/mib, "plain-cpu-µs/MiB")
	b.ReportMetric(float64(recCPU.Microseconds())/n/mib, "recorded-cpu-µs/MiB")
	if plainMachine > 0 {
		b.ReportMetric(float64(plainMachine.Microseconds())/n/mib, "plain-machine-cpu-µs/MiB")
		b.ReportMetric(float64(recMachine.Microseconds())/n/mib, "recorded-machine-cpu-µs/MiB")
	}
	b.ReportMetric(float64(plainMem.TotalAlloc)/n/1e6, "plain-MB-alloc")
	b.ReportMetric(float64(recMem.TotalAlloc)/n/1e6, "recorded-MB-alloc")
	b.ReportMetric(float64(plainMem.Mallocs)/n, "plain-allocs")
	b.ReportMetric(float64(recMem.Mallocs)/n, "recorded-allocs")
}

// ingestFile writes the file of text lines (80 bytes and CR LF each, a
// little over 16 MiB) the ingest benchmarks' sessions print, and returns
// its path and size.
func ingestFile(b *testing.B) (string, int64) {
	const size = 16 << 20
	file := filepath.Join(b.TempDir(), "out.txt")
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	if err := os.WriteFile(file, bytes.Repeat(line, size/len(line)+1), 0o644); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC() // the file's bytes are garbage: collect them before measuring
	return file, fi.Size()
}

// plainService is a service with the local backends and no recorder.
func plainService(b *testing.B) *core.Service {
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	return svc
}

// ingestOnce runs one session printing file on svc to its end and closes
// it; with a recorder, it returns once the recording is complete on disk.
func ingestOnce(ctx context.Context, b *testing.B, svc *core.Service, rec *record.Recorder, owner *core.Owner, file string) {
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", file}, NoInitialWait: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Close(ctx, owner, s.ID, "done"); err != nil {
		b.Fatal(err)
	}
	if rec != nil {
		if err := rec.Wait(ctx, s.ID); err != nil {
			b.Fatal(err)
		}
	}
}

// machineBusy returns the busy CPU time of the whole machine so far, or 0
// where the system does not tell it.
func machineBusy() time.Duration {
	c, err := procfs.ReadCPUTotals()
	if err != nil {
		return 0
	}
	return time.Duration(c.Busy) * (time.Second / 100) // USER_HZ
}

// cpuTime returns the user and system CPU time of this process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
