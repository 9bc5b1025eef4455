package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A remote target is a shell on another host: a server restricted to an
// allowlist or confined by a sandbox refuses to start with remote hosts
// rather than offer one.
func TestRemoteHostsRefusedUnderAllowlistOrSandbox(t *testing.T) {
	hosts := filepath.Join(t.TempDir(), "hosts.json")
	if err := os.WriteFile(hosts, []byte(`{"box": {"host": "127.0.0.1", "user": "nobody"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--allow", "python3", "--remote-hosts", hosts}, "--allow and --remote-hosts"},
		{[]string{"--sandbox", "--remote-hosts", hosts}, "--sandbox and --remote-hosts"},
	} {
		cfg := defaultConfig(t, tc.args...)
		ts, err := newToolServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err == nil {
			ts.shutdown(t.Context())
			t.Errorf("%v: the server started", tc.args)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %q, want it to name %q", tc.args, err, tc.want)
		}
	}
}
