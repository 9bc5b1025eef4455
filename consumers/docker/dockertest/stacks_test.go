package dockertest

import (
	"strings"
	"testing"
)

// A dump as dockerd writes it on SIGUSR1: three goroutines stuck on one
// mutex (different ids and arguments), one stuck elsewhere for less
// time, one running, one waiting under a minute.
const sampleDump = `goroutine 1 [running]:
main.main()
	/src/main.go:10 +0x1d

goroutine 40 [semacquire, 12 minutes]:
sync.(*Mutex).Lock(0xc0009a1400)
	/go/src/sync/mutex.go:81 +0x45
github.com/docker/docker/container.(*State).GetPID(0xc0009a1400, 0xc000a7d2a0)
	/src/container/state.go:248 +0x7b

goroutine 41 [semacquire, 11 minutes]:
sync.(*Mutex).Lock(0xc000ff0000)
	/go/src/sync/mutex.go:81 +0x45
github.com/docker/docker/container.(*State).GetPID(0xc000ff0000, 0xc000111111)
	/src/container/state.go:248 +0x7b

goroutine 42 [semacquire, 12 minutes]:
sync.(*Mutex).Lock(0xc000ee0000)
	/go/src/sync/mutex.go:81 +0x45
github.com/docker/docker/container.(*State).GetPID(0xc000ee0000, 0xc000222222)
	/src/container/state.go:248 +0x7b

goroutine 77 [chan receive, 3 minutes]:
github.com/docker/docker/daemon.(*Daemon).Kill(0xc000123456)
	/src/daemon/kill.go:170 +0x2a1

goroutine 80 [select]:
net/http.(*persistConn).readLoop(0xc000208f00)
	/go/src/net/http/transport.go:2450 +0x153d
`

func TestBlockedStacksGroupsLongWaits(t *testing.T) {
	got := blockedStacks(sampleDump)
	want := `3 goroutine(s) [semacquire, up to 12 minutes]:
sync.(*Mutex).Lock(...)
	/go/src/sync/mutex.go:81
github.com/docker/docker/container.(*State).GetPID(...)
	/src/container/state.go:248

1 goroutine(s) [chan receive, up to 3 minutes]:
github.com/docker/docker/daemon.(*Daemon).Kill(...)
	/src/daemon/kill.go:170

`
	if got != want {
		t.Fatalf("blockedStacks:\n%s\nwant:\n%s", got, want)
	}
	if got := blockedStacks("goroutine 1 [running]:\nmain.main()\n"); got != "" {
		t.Fatalf("a dump without long waits: %q, want none", got)
	}
}

func TestBlockedStacksIsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 3 * maxStackGroups {
		b.WriteString("goroutine 5 [select, 4 minutes]:\n")
		for j := range 3 * maxGroupLines {
			b.WriteString("pkg.f" + strings.Repeat("x", i) + "()\n\t/f.go:" + string(rune('0'+j%10)) + "\n")
		}
		b.WriteString("\n")
	}
	got := blockedStacks(b.String())
	if n := strings.Count(got, "goroutine(s) ["); n != maxStackGroups {
		t.Fatalf("%d groups, want %d", n, maxStackGroups)
	}
	if !strings.HasSuffix(got, "(24 more groups)\n") {
		t.Fatalf("the summary does not say how many groups it left out: %q", got[max(0, len(got)-80):])
	}
	if n := strings.Count(got, "\n"); n > maxStackGroups*(maxGroupLines+3)+1 {
		t.Fatalf("%d lines", n)
	}
}

// FuzzBlockedStacks feeds the summary arbitrary dumps (seeds in
// testdata/fuzz/FuzzBlockedStacks): it never panics and stays bounded.
func FuzzBlockedStacks(f *testing.F) {
	f.Fuzz(func(t *testing.T, dump string) {
		got := blockedStacks(dump)
		if n := strings.Count(got, "goroutine(s) ["); n > maxStackGroups {
			t.Fatalf("%d groups", n)
		}
	})
}
