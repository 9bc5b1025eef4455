package localpty

import (
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// BenchmarkProbe measures one probe (the full look InputWait takes) of bash at its prompt (the
// common case while a send settles) and of cat reading in the shell's
// foreground (a second process group to walk to).
func BenchmarkProbe(b *testing.B) {
	need(b, "bash", "cat")
	for _, c := range []struct{ name, cmd string }{{"bash-prompt", ""}, {"cat-foreground", "cat\r"}} {
		b.Run(c.name, func(b *testing.B) {
			bk := NewShell(ShellOptions{Options: shortOpts(false)})
			s, err := bk.spawn(b.Context(), core.BackendRequest{Marker: testMarkerPrefix + "bench-probe-" + randomHex(4)})
			if err != nil {
				b.Fatal(err)
			}
			done := make(chan struct{})
			go func() { // keep the output drained
				defer close(done)
				buf := make([]byte, 4096)
				for {
					if _, err := s.Read(buf); err != nil {
						return
					}
				}
			}()
			defer func() {
				if err := s.Close(b.Context()); err != nil {
					b.Error(err)
				}
				<-done
			}()
			if c.cmd != "" {
				if _, err := s.Write(b.Context(), []byte(c.cmd)); err != nil {
					b.Fatal(err)
				}
			}
			for i := 0; ; i++ {
				st, err := s.probe()
				if err != nil {
					b.Fatal(err)
				}
				if st.ReadingInput && st.Leader == (c.cmd == "") {
					break
				}
				if i > 1e6 {
					b.Fatal("never reached the reading state")
				}
			}
			// CPU time per probe (user+system, whole process) is reported
			// too: it is steadier than wall time on a shared machine.
			cpu0 := processCPU()
			n := 0
			for b.Loop() {
				if _, err := s.probe(); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(n), "cpu-ns/op")
		})
	}
}

// processCPU returns the process's user+system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
