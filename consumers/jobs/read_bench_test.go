//go:build unix

package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// BenchmarkFilteredRead scans a full 200,000-line buffer for a regex that
// matches one line, and pages through the same buffer unfiltered; it
// reports lines scanned per second and the ratio of the filtered scan's
// cost to the unfiltered paging.
func BenchmarkFilteredRead(b *testing.B) {
	svc := core.New(core.Options{Logger: quietLog})
	m, err := New(svc, Config{Backend: BackendPipe, BufferCapacity: MaxBufferCapacity, Logger: quietLog})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	defer svc.Shutdown(ctx)
	defer m.Shutdown(ctx)
	owner := core.NewOwner("bench")
	in, err := m.Launch(ctx, owner, LaunchRequest{Command: "seq", Args: []string{"1", "200000"}})
	if err != nil {
		b.Fatal(err)
	}
	for {
		i, _ := m.Get(owner, in.ID)
		if i.State.Final() {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	const lines = 200_000
	var filtered, plain time.Duration
	b.Run("filtered", func(b *testing.B) {
		start := time.Now()
		for b.Loop() {
			res, err := m.Read(owner, in.ID, ReadRequest{From: ptr[int64](0), Pattern: "^199999$"})
			if err != nil || len(res.Lines) != 1 || res.Next != lines {
				b.Fatalf("%+v %v", summary(res), err)
			}
		}
		filtered = time.Since(start) / time.Duration(b.N)
		b.ReportMetric(lines/filtered.Seconds(), "lines/s")
	})
	b.Run("unfiltered", func(b *testing.B) {
		start := time.Now()
		for b.Loop() {
			for from := int64(0); from < lines; {
				res, err := m.Read(owner, in.ID, ReadRequest{From: &from, Limit: MaxReadLimit})
				if err != nil {
					b.Fatal(err)
				}
				from = res.Next
			}
		}
		plain = time.Since(start) / time.Duration(b.N)
		b.ReportMetric(lines/plain.Seconds(), "lines/s")
		if filtered > 0 {
			b.ReportMetric(float64(filtered)/float64(plain), "filtered/unfiltered")
		}
	})
}
