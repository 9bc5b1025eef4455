package docker

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
)

// scaleSessions is how many container sessions TestConcurrentContainers
// runs at once.
const scaleSessions = 50

// TestConcurrentContainers opens 50 container sessions at once, has each
// echo a line, holds them all open, then closes them at once, and
// reports the open latency and the memory one session costs: the host
// process's heap, the engine's shim process, and the container's own
// memory cgroup.
func TestConcurrentContainers(t *testing.T) {
	t.Run("relay", func(t *testing.T) {
		b, d := newBackend(t)
		testConcurrentContainers(t, b, d)
	})
	t.Run("agent-mounted", func(t *testing.T) {
		b, d := newAgentBackendOpts(t, true)
		testConcurrentContainers(t, b, d)
	})
}

func testConcurrentContainers(t *testing.T, b *Backend, d *dockertest.Daemon) {
	tg := &Target{Image: d.Image, Shell: []string{"/bin/bash", "--norc"}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	beforeIDs := sessionContainers(t, d.Client)
	before := len(beforeIDs)
	shimsBefore := shimRSS()
	var m0 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)

	sessions := make([]core.BackendSession, scaleSessions)
	outs := make([]*lockedBuf, scaleSessions)
	opens := make([]time.Duration, scaleSessions)
	errs := make([]error, scaleSessions)
	var readers sync.WaitGroup
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Go(func() {
			start := time.Now()
			s, err := b.Spawn(ctx, core.BackendRequest{Size: core.DefaultSize, Marker: fmt.Sprintf("scale-%d-%d", os.Getpid(), i), Options: tg})
			opens[i] = time.Since(start)
			if err != nil {
				errs[i] = err
				return
			}
			sessions[i], outs[i] = s, &lockedBuf{}
			readers.Go(func() { outs[i].readAll(s) })
			line := fmt.Sprintf("echo hello-$((%d*2))\r", i)
			if _, err := s.Write(ctx, []byte(line)); err != nil {
				errs[i] = err
				return
			}
			errs[i] = outs[i].waitFor(ctx, fmt.Sprintf("hello-%d", i*2))
		})
	}
	wg.Wait()
	defer func() {
		// Whatever happened, close what opened.
		for _, s := range sessions {
			if s != nil {
				_ = s.Close(ctx)
			}
		}
		readers.Wait()
	}()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
	}
	var m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m1)
	shims := shimRSS() - shimsBefore
	var cg int64
	for _, s := range sessions {
		cg += cgroupMemory(s.(interface{ ContainerID() string }).ContainerID())
	}
	if got := len(sessionContainers(t, d.Client)); got != before+scaleSessions {
		t.Fatalf("%d session containers, want %d", got, before+scaleSessions)
	}

	start := time.Now()
	var cwg sync.WaitGroup
	cerrs := make([]error, scaleSessions)
	for i, s := range sessions {
		cwg.Go(func() { cerrs[i] = s.Close(ctx) })
	}
	cwg.Wait()
	closeAll := time.Since(start)
	for i, err := range cerrs {
		if err != nil {
			t.Fatalf("close %d: %v", i, err)
		}
	}
	if after := sessionContainers(t, d.Client); len(after) != before {
		own := map[string]int{}
		for i, s := range sessions {
			own[s.(interface{ ContainerID() string }).ContainerID()] = i
		}
		var left []string
		for _, id := range after {
			if !slices.Contains(beforeIDs, id) {
				left = append(left, id)
				if i, ok := own[id]; ok {
					t.Errorf("container %s is session %d's", short(id), i)
				}
			}
		}
		t.Fatalf("%d session containers after closing, want %d:%s", len(after), before, describeContainers(t, d, left))
	}
	slices.Sort(opens)
	n := int64(scaleSessions)
	t.Logf("%d concurrent container sessions on %d CPUs: open p50 %v, p95 %v, max %v; closing all took %v",
		scaleSessions, runtime.NumCPU(), opens[len(opens)/2].Round(time.Millisecond), opens[len(opens)*95/100].Round(time.Millisecond), opens[len(opens)-1].Round(time.Millisecond), closeAll.Round(time.Millisecond))
	t.Logf("memory per session: host process heap %d KiB, engine shim RSS %d KiB, container cgroup %d KiB",
		(int64(m1.HeapInuse)-int64(m0.HeapInuse))/n/1024, shims/n/1024, cg/n/1024)
}

// lockedBuf collects a session's output.
type lockedBuf struct {
	mu   sync.Mutex
	b    bytes.Buffer
	more chan struct{}
}

func (l *lockedBuf) readAll(s core.BackendSession) {
	buf := make([]byte, 4096)
	for {
		n, err := s.Read(buf)
		l.mu.Lock()
		l.b.Write(buf[:n])
		if l.more != nil {
			close(l.more)
			l.more = nil
		}
		l.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// waitFor waits until the output holds s.
func (l *lockedBuf) waitFor(ctx context.Context, s string) error {
	for {
		l.mu.Lock()
		if strings.Contains(l.b.String(), s) {
			l.mu.Unlock()
			return nil
		}
		if l.more == nil {
			l.more = make(chan struct{})
		}
		more := l.more
		l.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			return fmt.Errorf("output never held %q: %q", s, l.b.String())
		}
	}
}

// shimRSS sums the resident memory of the engine's containerd shims.
func shimRSS() int64 {
	var total int64
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		cmd, _ := os.ReadFile(dir + "/cmdline")
		if !bytes.Contains(cmd, []byte("containerd-shim")) {
			continue
		}
		st, _ := os.ReadFile(dir + "/status")
		for _, line := range strings.Split(string(st), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				total += kb * 1024
			}
		}
	}
	return total
}

// cgroupMemory reads a container's memory use from its cgroup (v1, the
// engine's cgroupfs driver; v2), 0 when neither is there.
func cgroupMemory(id string) int64 {
	for _, p := range []string{
		"/sys/fs/cgroup/memory/docker/" + id + "/memory.usage_in_bytes",
		"/sys/fs/cgroup/docker/" + id + "/memory.current",
		"/sys/fs/cgroup/system.slice/docker-" + id + ".scope/memory.current",
	} {
		if b, err := os.ReadFile(p); err == nil {
			v, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
			return v
		}
	}
	return 0
}
