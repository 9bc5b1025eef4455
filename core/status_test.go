package core

import (
	"encoding/json"
	"testing"
)

func TestStatusJSONHasTheSeedShape(t *testing.T) {
	cases := []struct {
		st   Status
		want string
	}{
		{Running, `{"kind":"running"}`},
		{ExitedWithCode(3), `{"kind":"exited","exitCode":3}`},
		{ExitedWithSignal("SIGKILL"), `{"kind":"exited","signal":"SIGKILL"}`},
		{Status{Kind: StatusExited, ExitCode: -1, Reason: "connection lost"}, `{"kind":"exited","reason":"connection lost"}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.st)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("Marshal(%v) = %s, want %s", c.st, b, c.want)
		}
		var back Status
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back != c.st {
			t.Errorf("round trip of %s gave %+v, want %+v", b, back, c.st)
		}
	}
}

func TestStatusString(t *testing.T) {
	for st, want := range map[Status]string{
		Running:                            "running",
		ExitedWithCode(0):                  "exited 0",
		ExitedWithSignal("SIGSEGV"):        "exited (SIGSEGV)",
		{Kind: StatusExited, ExitCode: -1}: "exited (unknown code)",
		// A reason is part of the text: a lost connection must not read
		// as "exited (unknown code)" in a log.
		{Kind: StatusExited, ExitCode: -1, Reason: "connection lost"}: "exited (connection lost)",
		{Kind: StatusExited, ExitCode: 3, Reason: "closed"}:           "exited 3 (closed)",
	} {
		if got := st.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", st, got, want)
		}
	}
}
