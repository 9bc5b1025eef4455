package core

import "testing"

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
	} {
		if got := ContinuationPrompt(c.reason, c.text); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.reason, c.text, got, c.want)
		}
	}
}
