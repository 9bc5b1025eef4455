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
relayed) # honest, its output relayed by a cat a test may stop (SIGSTOP):
	# the far side then stops answering, its connection open
	sh -c "$SSH_ORIGINAL_COMMAND" | cat; exit ;;
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
	hosts, srvs := hostileHosts(t, map[string]string{"box": behaviour})
	return hosts, srvs["box"]
}

// hostileHosts starts one far side per entry of behaviours (host name to
// behaviour) and returns a --remote-hosts file naming them (through the
// agent) and their sshds.
func hostileHosts(t *testing.T, behaviours map[string]string) (string, map[string]*sshdtest.Server) {
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
	hosts := map[string]any{}
	srvs := map[string]*sshdtest.Server{}
	for name, behaviour := range behaviours {
		srv := sshdtest.Start(t, sshdtest.Options{Env: []string{"PTYSEAM_HOSTILE=" + behaviour}, ExtraConfig: "ForceCommand " + script + "\n"})
		kh := filepath.Join(dir, name+".known_hosts")
		if err := srv.WriteKnownHosts(kh); err != nil {
			t.Fatal(err)
		}
		pw := filepath.Join(dir, name+".password")
		if err := os.WriteFile(pw, []byte(srv.Password+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		hosts[name] = map[string]any{"host": srv.Host, "port": srv.Port, "user": srv.User, "passwordFile": pw,
			"knownHostsFiles": []string{kh}, "ptyseamAgent": true}
		srvs[name] = srv
	}
	data, _ := json.Marshal(map[string]any{"hosts": hosts})
	hostsFile := filepath.Join(dir, "hosts.json")
	if err := os.WriteFile(hostsFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return hostsFile, srvs
}
