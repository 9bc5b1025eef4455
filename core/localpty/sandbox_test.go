package localpty

import (
	"slices"
	"strings"
	"testing"
)

// TestLauncherArgsAskForAPrivateTmp: a size asks the launcher for a /tmp
// of the session's own, unless a list grants the host's /tmp itself.
func TestLauncherArgsAskForAPrivateTmp(t *testing.T) {
	for _, tc := range []struct {
		sb   Sandbox
		want bool
	}{
		{Sandbox{TmpBytes: 64 << 20}, true},
		{Sandbox{TmpBytes: 64 << 20, Writable: []string{"/tmp/work"}}, true},
		{Sandbox{}, false},
		{Sandbox{TmpBytes: 64 << 20, Writable: []string{"/tmp/"}}, false},
		{Sandbox{TmpBytes: 64 << 20, ReadOnly: []string{"/usr", "/tmp"}}, false},
	} {
		args := LauncherArgs(&tc.sb)
		i := slices.Index(args, "-tmp")
		if got := i >= 0; got != tc.want || got && args[i+1] != "67108864" {
			t.Errorf("%+v: launcher args %s, want a private /tmp %v", tc.sb, strings.Join(args, " "), tc.want)
		}
	}
	if err := (&Sandbox{Launcher: []string{"x"}, TmpBytes: -1}).validate(); err == nil {
		t.Error("a negative TmpBytes was accepted")
	}
}
