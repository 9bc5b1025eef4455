package tools

import "testing"

func TestOnlyServed(t *testing.T) {
	unserved := func(name string) bool { return name == "bg_send" || name == "pty_list" }
	cases := []struct{ in, want string }{
		{"", ""},
		{"No tool named here.", "No tool named here."},
		{"Call pty_open to start a new session. pty_list shows your open ones.", "Call pty_open to start a new session."},
		{"pty_list shows them. Then retry.", "Then retry."},
		{"bg_read shows its output. bg_send types into it. bg_stop ends it.", "bg_read shows its output. bg_stop ends it."},
		{"Only pty_list. And bg_send.", ""},
		{"A pty_2z2z id stays.", "A pty_2z2z id stays."},
	}
	for _, c := range cases {
		if got := OnlyServed(c.in, unserved); got != c.want {
			t.Errorf("OnlyServed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
