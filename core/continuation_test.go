package core

import (
	"strings"
	"testing"
)

func TestContinuationPrompt(t *testing.T) {
	const py, sql = REPLContinuationPrompt, SQLContinuationPrompt
	for _, c := range []struct {
		reason WaitReason
		text   string
		want   string
	}{
		{WaitStdinRead, "def f(x):\n...     return x*2\n... ", py},
		{WaitStdinRead, "... ", py},
		{WaitStdinRead, "for i in range(2):\r\n... ", py},
		{WaitStdinRead, "Loading... ", ""},
		{WaitStdinRead, "x\n...     ", py}, // Python 3.13's editor indents the next line by itself
		{WaitStdinRead, "x\n... \t", ""},
		{WaitStdinRead, "x\n...     y", ""},
		{WaitStdinRead, "x\n>>> ", ""},
		{WaitStdinRead, "", ""},
		{WaitPrompt, "x\n... ", ""},
		{WaitInferredIdle, "x\n... ", ""},
		{WaitStdinRead, "select 1\r\n   ...> ", sql},
		{WaitStdinRead, "   ...> ", sql},
		{WaitStdinRead, "x\n  ...> ", ""},
		{WaitStdinRead, "x\nsqlite> ", ""},
		{WaitPrompt, "x\n   ...> ", ""},
		{WaitRemotePrompt, "def f():\r\n... ", py}, // a console on the far side of an ssh typed into the shell
		{WaitRemotePrompt, "select 1\r\n   ...> ", sql},
		{WaitRemotePrompt, "x\n$ ", ""},
		{WaitStdinRead, "select * from t\r\npostgres-# ", "postgres-# "}, // psql: no ";" yet
		{WaitStdinRead, "select 'a\r\npostgres'# ", "postgres'# "},
		{WaitStdinRead, "select (1\nshop(> ", "shop(> "},
		{WaitStdinRead, "x\npostgres=# ", ""},           // psql's first prompt
		{WaitStdinRead, "x\npostgres=*# ", ""},          // in a transaction
		{WaitStdinRead, "select 1\n    -> ", "    -> "}, // mysql
		{WaitStdinRead, "select 'a\n    '> ", "    '> "},
		{WaitStdinRead, "x\nmysql> ", ""},
		{WaitStdinRead, "x\nuser@host:~$ ", ""},
		{WaitStdinRead, "x\n==> ", ""},
		{WaitStdinRead, "x\n-> ", ""},
		{WaitStdinRead, "x\nbash-5.2# ", ""},
		{WaitStdinRead, "x\nroot@box:/srv/a-b# ", ""},
	} {
		if got := ContinuationPrompt(c.reason, c.text); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.reason, c.text, got, c.want)
		}
	}
}

// FuzzContinuationPrompt: a continuation prompt found is the output's
// last line or its start, and ends in room to type.
func FuzzContinuationPrompt(f *testing.F) {
	for _, s := range []string{"def f():\n... ", "select 1\n   ...> ", "select 1\npostgres-# ", "x\n    '> ", "x\npostgres=*# ", "Loading... "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := ContinuationPrompt(WaitStdinRead, text)
		if p == "" {
			return
		}
		last := text[strings.LastIndexByte(text, '\n')+1:]
		if !strings.HasPrefix(last, p) || !strings.HasSuffix(p, " ") {
			t.Fatalf("%q: prompt %q is not the start of the last line %q, or leaves no room to type", text, p, last)
		}
	})
}
