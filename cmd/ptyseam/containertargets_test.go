package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A container or Kubernetes target is a shell: refused beside an
// allowlist or a sandbox, like a remote host.
func TestContainerTargetsRefusedUnderAllowlistOrSandbox(t *testing.T) {
	for _, flag := range []string{"--docker-targets", "--k8s-targets"} {
		file := filepath.Join(t.TempDir(), "targets.json")
		if err := os.WriteFile(file, []byte(`{"targets": {"box": {"image": "x"}}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"--allow", "python3", flag, file}, "--allow and " + flag},
			{[]string{"--sandbox", flag, file}, "--sandbox and " + flag},
		} {
			ts, err := newToolServer(defaultConfig(t, tc.args...), slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err == nil {
				_ = ts.shutdown(t.Context())
				t.Errorf("%v: the server started", tc.args)
				continue
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: error %q, want it to name %q", tc.args, err, tc.want)
			}
		}
	}
}
