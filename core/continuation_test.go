package core

import "testing"

func TestWaitsForREPLContinuation(t *testing.T) {
	for _, c := range []struct {
		reason WaitReason
		text   string
		want   bool
	}{
		{WaitStdinRead, "def f(x):\n...     return x*2\n... ", true},
		{WaitStdinRead, "... ", true},
		{WaitStdinRead, "for i in range(2):\r\n... ", true},
		{WaitStdinRead, "Loading... ", false},
		{WaitStdinRead, "x\n...     ", true}, // Python 3.13's editor indents the next line by itself
		{WaitStdinRead, "x\n... \t", false},
		{WaitStdinRead, "x\n...     y", false},
		{WaitStdinRead, "x\n>>> ", false},
		{WaitStdinRead, "", false},
		{WaitPrompt, "x\n... ", false},
		{WaitInferredIdle, "x\n... ", false},
	} {
		if got := WaitsForREPLContinuation(c.reason, c.text); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.reason, c.text, got, c.want)
		}
	}
}
