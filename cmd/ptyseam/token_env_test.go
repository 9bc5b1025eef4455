package main

import (
	"strings"
	"testing"
)

// The bearer token given in the server's environment does not reach a
// session: a model that prints its environment learns nothing it could
// sign in with.
func TestTokenFromTheEnvironmentReachesNoSession(t *testing.T) {
	token := randomToken()
	p := startHTTPWith(t, token, []string{tokenEnv + "=" + token})
	opened := p.call(t, "pty_open", map[string]any{"command": "bash"})
	id, _ := opened["sessionId"].(string)
	sent := p.call(t, "pty_send", map[string]any{"id": id, "data": `echo "token=[${` + tokenEnv + `-unset}]"; env | grep -c ` + tokenEnv})
	delta, _ := sent["delta"].(string)
	if !strings.Contains(delta, "token=[unset]") || !strings.Contains(delta, "\n0") {
		t.Fatalf("the session sees the server's token variable:\n%s", delta)
	}
}
