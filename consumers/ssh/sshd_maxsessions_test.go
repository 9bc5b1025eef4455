package ssh

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
)

// With sshd's default MaxSessions (10) an 11th session opens a further
// connection instead of failing with "open failed".
func TestSSHDMoreSessionsThanMaxSessions(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{MaxSessions: 10, Banner: "banner once\n"})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	var terms []*term
	for i := range 12 {
		s := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", "echo up; exec sleep 100"}})
		tm := newTerm(s)
		tm.waitFor(t, "up", 10*time.Second)
		if i > 0 && strings.Contains(tm.String(), "banner once") {
			t.Fatalf("session %d repeats the banner", i)
		}
		terms = append(terms, tm)
	}
	conns := b.Connections()
	total := 0
	for _, c := range conns {
		total += c.Sessions
	}
	if len(conns) != 2 || total != 12 {
		t.Fatalf("connections %+v", conns)
	}
	for _, tm := range terms {
		closeSession(t, tm.s)
	}
	if n := len(b.Connections()); n != 0 {
		t.Fatalf("%d connections left open", n)
	}
}
