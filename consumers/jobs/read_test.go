//go:build unix

package jobs

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestLongUnterminatedLineKeepsTail(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe})
	// 100,000 characters without a newline: 50,000 'a' then 50,000 'b'.
	in := f.launch(t, LaunchRequest{Command: "python3", Args: []string{"-c",
		"import sys, time; sys.stdout.write('a'*50000 + 'b'*50000); sys.stdout.flush(); time.sleep(300)"}})
	got := f.waitInfo(t, in.ID, "the whole line", func(in Info) bool { return in.Output.Bytes == 100_000 })
	if got.Output.CutBytes != 100_000-MaxLineBytes || got.Output.Lines != 1 {
		t.Fatalf("stats %+v", got.Output)
	}
	res, err := f.m.Read(f.owner, in.ID, ReadRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 1 || !res.Lines[0].Partial || res.Next != 0 || res.More {
		t.Fatalf("read %+v", summary(res))
	}
	want := strings.Repeat("a", MaxLineBytes-50000) + strings.Repeat("b", 50000)
	if res.Lines[0].Text != want {
		t.Fatalf("kept %d bytes, not the %d-byte tail", len(res.Lines[0].Text), len(want))
	}
}

func TestPartialLineIsReadAgain(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe})
	in := f.launch(t, sh(`echo one; printf 'name? '; read n; echo "hello $n"; sleep 300`))
	f.waitOutput(t, in.ID, "name? ")
	res, err := f.m.Read(f.owner, in.ID, ReadRequest{From: ptr[int64](0)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 2 || res.Lines[1] != (Line{N: 1, Text: "name? ", Partial: true}) || res.Next != 1 || res.More {
		t.Fatalf("first read %+v", summary(res))
	}
	if _, err := f.m.Write(t.Context(), f.owner, in.ID, `bob\n`); err != nil {
		t.Fatal(err)
	}
	f.waitOutput(t, in.ID, "hello bob")
	res, err = f.m.Read(f.owner, in.ID, ReadRequest{From: &res.Next})
	if err != nil {
		t.Fatal(err)
	}
	// Pipes do not echo: the answer continues the prompt's line.
	if len(res.Lines) != 1 || res.Lines[0] != (Line{N: 1, Text: "name? hello bob"}) || res.Next != 2 || res.More {
		t.Fatalf("second read %+v", summary(res))
	}
}

// TestFilteredReadsAcrossWrap pages a regex-filtered read through a ring
// that has dropped its oldest lines.
func TestFilteredReadsAcrossWrap(t *testing.T) {
	f := newFixture(t, Config{BufferCapacity: 100, Backend: BackendPipe})
	in := f.launch(t, sh(`i=0; while [ $i -lt 250 ]; do if [ $((i % 3)) -eq 0 ]; then echo "line $i FIZZ"; else echo "line $i"; fi; i=$((i+1)); done`))
	f.waitEnded(t, in.ID)

	// Every third line of the retained 150..249 matches: 150, 153, ... 249.
	var want []string
	for i := 150; i < 250; i++ {
		if i%3 == 0 {
			want = append(want, fmt.Sprintf("line %d FIZZ", i))
		}
	}
	var got []string
	from := int64(0)
	for page := 0; ; page++ {
		res, err := f.m.Read(f.owner, in.ID, ReadRequest{From: &from, Limit: 7, Pattern: "fizz$", IgnoreCase: true})
		if err != nil {
			t.Fatal(err)
		}
		if page == 0 && (res.Dropped != 150 || !res.Truncated || res.First != 150 || res.Total != 250) {
			t.Fatalf("first page %+v", summary(res))
		}
		if page > 0 && (res.Dropped != 0 || res.Truncated) {
			t.Fatalf("page %d %+v", page, summary(res))
		}
		for _, l := range res.Lines {
			if l.Text != fmt.Sprintf("line %d FIZZ", l.N) {
				t.Fatalf("line %d is %q", l.N, l.Text)
			}
			got = append(got, l.Text)
		}
		if res.Next <= from && res.More {
			t.Fatalf("no progress at %d", from)
		}
		from = res.Next
		if !res.More {
			break
		}
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("paged %d lines:\n%q\nwant %d:\n%q", len(got), got, len(want), want)
	}
	if from != 250 {
		t.Fatalf("final next %d", from)
	}

	// Case matters without IgnoreCase.
	res, err := f.m.Read(f.owner, in.ID, ReadRequest{From: ptr[int64](0), Pattern: "fizz"})
	if err != nil || len(res.Lines) != 0 || res.Next != 250 || res.More {
		t.Fatalf("case-sensitive %+v %v", summary(res), err)
	}
	// The newest matches, oldest first.
	res, err = f.m.Read(f.owner, in.ID, ReadRequest{Limit: 3, Pattern: "FIZZ"})
	if err != nil {
		t.Fatal(err)
	}
	if texts(res) != "line 243 FIZZ|line 246 FIZZ|line 249 FIZZ" || res.Next != 250 {
		t.Fatalf("newest %+v", summary(res))
	}
	// Unfiltered newest and a window in the middle.
	res, _ = f.m.Read(f.owner, in.ID, ReadRequest{Limit: 2})
	if texts(res) != "line 248|line 249 FIZZ" {
		t.Fatalf("tail %+v", summary(res))
	}
	res, _ = f.m.Read(f.owner, in.ID, ReadRequest{From: ptr[int64](200), Limit: 2})
	if texts(res) != "line 200|line 201 FIZZ" || res.Next != 202 || !res.More {
		t.Fatalf("middle %+v", summary(res))
	}
	// Beyond the end: nothing, resume at the end.
	res, _ = f.m.Read(f.owner, in.ID, ReadRequest{From: ptr[int64](9999)})
	if len(res.Lines) != 0 || res.Next != 250 {
		t.Fatalf("beyond %+v", summary(res))
	}
}

func TestReadArgumentErrors(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe})
	in := f.launch(t, sh("true"))
	for _, req := range []ReadRequest{
		{Limit: -1}, {Limit: MaxReadLimit + 1}, {From: ptr[int64](-1)},
		{Pattern: "("}, {Pattern: strings.Repeat("a", MaxPatternLen+1)},
	} {
		if _, err := f.m.Read(f.owner, in.ID, req); !errors.Is(err, core.ErrInvalidArgument) {
			t.Errorf("%+v: %v", req, err)
		}
	}
}

func TestWriteDecodesEscapes(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe})
	in := f.launch(t, LaunchRequest{Command: "python3", Args: []string{"-u", "-c",
		"import sys; print('got', repr(sys.stdin.buffer.readline()))"}})
	res, err := f.m.Write(t.Context(), f.owner, in.ID, `a\tb\x41\cC\q\u00e9\n`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes != 10 || res.Echo != `a\tbA\x03\\qé\n` {
		t.Fatalf("write %+v", res)
	}
	f.waitOutput(t, in.ID, `got b'a\tbA\x03\\q\xc3\xa9\n'`)
	f.waitEnded(t, in.ID)
	if _, err := f.m.Write(t.Context(), f.owner, in.ID, "late"); !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("write after end: %v", err)
	}
}

func texts(res ReadResult) string {
	var s []string
	for _, l := range res.Lines {
		s = append(s, l.Text)
	}
	return strings.Join(s, "|")
}

// summary shortens a result for failure messages.
func summary(res ReadResult) string {
	var ls []string
	for _, l := range res.Lines {
		t := l.Text
		if len(t) > 40 {
			t = t[:40] + "..."
		}
		ls = append(ls, fmt.Sprintf("%d:%q partial=%v", l.N, t, l.Partial))
	}
	return fmt.Sprintf("lines=[%s] next=%d total=%d first=%d dropped=%d truncated=%v more=%v", strings.Join(ls, ", "), res.Next, res.Total, res.First, res.Dropped, res.Truncated, res.More)
}
