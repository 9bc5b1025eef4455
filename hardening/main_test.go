package hardening

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// runMarker is inherited by every process these tests start.
var runMarker string

func TestMain(m *testing.M) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	os.Setenv("PTYSEAM_TEST_RUN", hex.EncodeToString(b[:]))
	runMarker = "PTYSEAM_TEST_RUN=" + os.Getenv("PTYSEAM_TEST_RUN")
	code := m.Run()
	if left := survivors(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "processes outlived the tests: %v\n", left)
		code = 1
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// soak reports whether the long runs were asked for.
func soak() bool { return os.Getenv("PTYSEAM_SOAK") != "" }

// rounds returns n for soak runs and short otherwise.
func rounds(short, n int) int {
	if soak() {
		return n
	}
	return short
}

// survivors lists live processes carrying this run's marker.
func survivors() []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		if pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !bytes.Contains(env, []byte(runMarker)) {
			continue
		}
		if stat, err := os.ReadFile(d + "/stat"); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// requireNoSurvivors fails the test if any process of this run is alive.
func requireNoSurvivors(t *testing.T, what string) {
	t.Helper()
	if left := survivors(); len(left) > 0 {
		t.Fatalf("%s: %d processes survived: %v", what, len(left), left)
	}
}

func newService(t testing.TB, opts core.Options) *core.Service {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quietLogger()
	}
	svc := core.New(opts)
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return svc
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
