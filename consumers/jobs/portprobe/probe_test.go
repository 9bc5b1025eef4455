package portprobe

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

func TestProbeSeesListener(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	r, err := Probe(context.Background(), port)
	if err != nil {
		t.Fatal(err)
	}
	if !r.InUse || r.Detail == "" {
		t.Fatalf("listening port %d reported %+v", port, r)
	}
}

func TestProbeSeesBoundButNotAccepting(t *testing.T) {
	// A socket bound on all addresses but not loopback-reachable in the
	// dial sense is still caught by the bind check: bind IPv6 any.
	l, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	r, err := Probe(context.Background(), port)
	if err != nil || !r.InUse {
		t.Fatalf("port %d: %+v, %v", port, r, err)
	}
}

func TestProbeFreePort(t *testing.T) {
	// Reserved (bound, never listening), not released: a released port
	// may be taken by anyone before the probe looks.
	port := testenv.ReservePort(t)
	r, err := Probe(context.Background(), port)
	if err != nil || r.InUse {
		t.Fatalf("reserved, free port %d: %+v, %v", port, r, err)
	}
}

func TestProbeAllInvalidAndDuplicates(t *testing.T) {
	if _, err := Probe(context.Background(), 0); !errors.Is(err, ErrInvalidPort) {
		t.Fatalf("port 0: %v", err)
	}
	if _, err := ProbeAll(context.Background(), []int{70000}); !errors.Is(err, ErrInvalidPort) {
		t.Fatalf("port 70000: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	rs, err := ProbeAll(context.Background(), []int{port, port})
	if err != nil || len(rs) != 1 || !rs[0].InUse {
		t.Fatalf("ProbeAll = %+v, %v", rs, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Probe(ctx, port); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled probe: %v", err)
	}
}
