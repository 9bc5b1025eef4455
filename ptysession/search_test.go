package ptysession

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestSearchFindsLinesWithTheirNumbers(t *testing.T) {
	forEachSeam(t, Options{MaxResultBytes: 2000}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		shellSend(t, s, owner, r.SessionID, "for i in $(seq 1 3000); do if [ $((i % 500)) = 0 ]; then echo \"x.go:$i: Error at $i\"; else echo \"ok $i\"; fi; done")
		ctx := testCtx(t)
		id := string(r.SessionID)
		res, err := s.Search(ctx, owner, id, SearchRequest{Pattern: `^x\.go:\d+: error`, IgnoreCase: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 6 || res.More {
			t.Fatalf("matches %+v more %v, want the 6 error lines", res.Matches, res.More)
		}
		for _, m := range res.Matches {
			pg, err := s.Read(ctx, owner, r.SessionID, ReadRequest{Start: m.Line, Count: 1})
			if err != nil || pg.Text != m.Text+"\n" {
				t.Fatalf("line %d is %q, search said %q (%v)", m.Line, pg.Text, m.Text, err)
			}
		}
		// Paged: two at a time, from next on.
		var got []SearchMatch
		from := int64(0)
		for range 10 {
			p, err := s.Search(ctx, owner, id, SearchRequest{Pattern: `Error at \d`, From: from, Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, p.Matches...)
			from = p.Next
			if !p.More {
				break
			}
		}
		if len(got) != 6 || got[5] != res.Matches[5] {
			t.Fatalf("paged %+v", got)
		}
		// The byte bound: 3000 "ok" lines do not fit 2000 bytes.
		p, err := s.Search(ctx, owner, id, SearchRequest{Pattern: "^ok", Limit: MaxSearchLimit})
		if err != nil || !p.More || len(p.Matches) == 0 || len(p.Matches) >= 500 || p.Next <= p.Matches[len(p.Matches)-1].Line {
			t.Fatalf("bounded search: %d matches, more %v, next %d, %v", len(p.Matches), p.More, p.Next, err)
		}
		// Nothing from past the end.
		p, err = s.Search(ctx, owner, id, SearchRequest{Pattern: "ok", From: res.Matches[5].Line + 1000})
		if err != nil || len(p.Matches) != 0 || p.More {
			t.Fatalf("search past the end: %+v %v", p, err)
		}
	})
}

func TestSearchRefusesBadInput(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		id := string(r.SessionID)
		for name, req := range map[string]SearchRequest{
			"empty pattern":   {},
			"long pattern":    {Pattern: strings.Repeat("a", MaxSearchPattern+1)},
			"backreference":   {Pattern: `(a)\1`},
			"negative from":   {Pattern: "a", From: -1},
			"limit too large": {Pattern: "a", Limit: MaxSearchLimit + 1},
		} {
			if _, err := s.Search(ctx, owner, id, req); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("%s: %v, want INVALID_ARGUMENT", name, err)
			}
		}
		if _, err := s.Search(ctx, core.NewOwner("other"), id, SearchRequest{Pattern: "a"}); !errors.Is(err, ErrForeignSession) {
			t.Errorf("another owner's session: %v", err)
		}
		if _, err := s.Search(ctx, owner, "pty_nonesuch", SearchRequest{Pattern: "a"}); !errors.Is(err, ErrNoSession) {
			t.Errorf("unknown session: %v", err)
		}
	})
}
