package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
)

// Hostile far sides: an sshd on loopback whose every exec channel runs
// the script below instead of the command the server asked for (sshd's
// ForceCommand), as a compromised or broken host would. The server logs
// in as usual; what answers is chosen by $PTYSEAM_HOSTILE (sshd's SetEnv).
const hostileScript = `#!/bin/sh
hello='ptyseam-agent {"min":1,"max":1,"os":"%s","arch":"%s","pid":1}'
case "$PTYSEAM_HOSTILE" in
silent) # logs in and never says hello
	exec sleep 300 ;;
mute) # says hello, then never answers a call nor reads one
	echo "$hello"; exec sleep 300 ;;
garbage) # says hello, then floods bytes that are no protocol
	echo "$hello"; exec cat /dev/urandom ;;
*) # honest: runs what the server asked for
	exec sh -c "$SSH_ORIGINAL_COMMAND" ;;
esac
`

// hostileHost starts a far side that behaves as behaviour says and
// returns a --remote-hosts file naming it "box" (through the agent).
func hostileHost(t *testing.T, behaviour string) string {
	hosts, _ := hostileServer(t, behaviour)
	return hosts
}

// hostileServer is hostileHost that also returns the far side's sshd.
func hostileServer(t *testing.T, behaviour string) (string, *sshdtest.Server) {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} { // the sshd test user runs the script
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(dir, "hostile.sh")
	if err := os.WriteFile(script, fmt.Appendf(nil, hostileScript, runtime.GOOS, runtime.GOARCH), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := sshdtest.Start(t, sshdtest.Options{Env: []string{"PTYSEAM_HOSTILE=" + behaviour}, ExtraConfig: "ForceCommand " + script + "\n"})
	kh := filepath.Join(dir, "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	pw := filepath.Join(dir, "password")
	if err := os.WriteFile(pw, []byte(srv.Password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hosts, _ := json.Marshal(map[string]any{"hosts": map[string]any{"box": map[string]any{
		"host": srv.Host, "port": srv.Port, "user": srv.User, "passwordFile": pw,
		"knownHostsFiles": []string{kh}, "ptyseamAgent": true,
	}}})
	hostsFile := filepath.Join(dir, "hosts.json")
	if err := os.WriteFile(hostsFile, hosts, 0o600); err != nil {
		t.Fatal(err)
	}
	return hostsFile, srv
}
