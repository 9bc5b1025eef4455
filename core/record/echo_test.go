package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// The judge records input the output shows and hides input it does not.
func TestEchoJudgeVerdicts(t *testing.T) {
	for _, c := range []struct {
		name, input, output string
		want                int
	}{
		{"readline echoes a key", "l", "l", shown},
		{"readline inserts mid-line", "a", "\x1b[1@a", shown},
		{"a command after a redrawn prompt", "echo hi\r", "\r\x1b[K\r$ echo hi\r\nhi\r\n", shown},
		{"lines with output between", "echo a\recho b\r", "echo a\r\na\r\n$ echo b\r\nb\r\n", shown},
		{"a masked key", "h", "*", hidden},
		{"a key at a redrawn masked prompt", "a", "\r\x1b[2K? Password: *", hidden},
		{"a secret not echoed", "hunter22\r", "\r\ngot 8 chars\r\n", hidden},
		{"a secret's first line echoed, not its second", "sudo ls\rhunter22\r", "sudo ls\r\n[sudo] password for ann: \r\nfile\r\n", hidden},
		{"a key whose echo starts it, then other text", "g", "got 4 chars", shown},
		{"a secret the next prompt happens to hold", "root\r", "\r\ngot 4 keys\r\nroot@box:~# ", hidden},
		{"a long command readline wraps", "echo 0123456789\r", "echo 01234\n56789\r\n0123456789\r\n", shown},
		{"a key before a newline", "x", "\r\nx", hidden},
	} {
		j := newEchoJudge(core.Event{Data: []byte(c.input)})
		j.feed([]byte(c.output))
		if got := j.verdict(true); got != c.want {
			t.Errorf("%s: verdict %d, want %d", c.name, got, c.want)
		}
	}
	// An echo on its way is waited for, also past a line readline wraps.
	j := newEchoJudge(core.Event{Data: []byte("echo 0123456789\r")})
	j.feed([]byte("ech"))
	if got := j.verdict(false); got != undecided {
		t.Fatalf("a partial echo: verdict %d, want undecided", got)
	}
	j.feed([]byte("o 01234\n"))
	if got := j.verdict(false); got != undecided {
		t.Fatalf("a wrapped partial echo: verdict %d, want undecided", got)
	}
	j.feed([]byte("56789"))
	if got := j.verdict(false); got != shown {
		t.Fatalf("a wrapped echo: verdict %d, want shown", got)
	}
}

// Lines that ask for a secret are told from other lines ending in a colon.
func TestSecretPromptShapes(t *testing.T) {
	for line, want := range map[string]bool{
		"Password: ":                       true,
		"[sudo] password for ann: ***":     true,
		"Enter passphrase for key 'k': ":   true,
		"? Enter your API key: ****":       true,
		"Password for 'https://x@y.z': ":   true,
		"Enter PIN: ":                      true,
		"\x1b[1mPassword:\x1b[0m ":         true,
		"ann@box:~$ ":                      false,
		"Name: ":                           false,
		"Password: hunter2\r\nann@box:~$ ": false,
		"spinning: ":                       false,
	} {
		x := &rec{}
		x.keepTail([]byte(line))
		if got := x.atSecretPrompt(); got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}

// An input is judged on all the output up to the next input, also when
// that input was reported before the output between them reached the
// recorder: a partial echo is not judged final early.
func TestEchoJudgedUpToTheNextInputOnly(t *testing.T) {
	var file bytes.Buffer
	x := &rec{w: &file, start: time.Now(), max: 1 << 40}
	r := &Recorder{recs: map[core.SessionID]*rec{"s-1": x}}
	r.OnEvent(core.Event{Kind: core.EventInput, Session: "s-1", Offset: 0, Echo: core.EchoByProgram, Data: []byte("echo hi\r"), Time: x.start})
	r.OnEvent(core.Event{Kind: core.EventInput, Session: "s-1", Offset: 15, Echo: core.EchoByProgram, Data: []byte("q"), Time: x.start})
	x.output([]byte("ech"), x.start)
	x.output([]byte("o hi\r\nhi\r\n$ "), x.start)
	x.output([]byte("q"), x.start)
	x.finish()
	if x.flush(); x.err != nil {
		t.Fatal(x.err)
	}
	var inputs []string
	for _, l := range strings.Split(strings.TrimSpace(file.String()), "\n") {
		var ev []any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		if ev[1] == "i" {
			inputs = append(inputs, ev[2].(string))
		}
	}
	if strings.Join(inputs, "|") != "echo hi\r|q" {
		t.Fatalf("inputs %q, want both shown:\n%s", inputs, file.String())
	}
}
