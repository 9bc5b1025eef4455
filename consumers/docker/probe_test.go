package docker

import (
	"errors"
	"testing"
)

// Only a runtime's refusal that says the container's init ended counts
// as the container's death; a refusal for any other reason (a live
// container whose pids limit is full, an image without /bin/sh, a paused
// container) does not.
func TestRuntimeSaysStopped(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{"Error response from daemon: cannot exec in a stopped state: unknown", true},
		{"Error response from daemon: OCI runtime exec failed: exec failed: cannot exec in a stopped container: unknown", true},
		{"Error response from daemon: OCI runtime exec failed: exec failed: unable to start container process: exec: \"/bin/sh\": stat /bin/sh: no such file or directory: unknown", false},
		{"Error response from daemon: OCI runtime exec failed: exec failed: unable to start container process: read init-p: connection reset by peer: unknown", false},
		{"Error response from daemon: OCI runtime exec failed: exec failed: container_linux.go:380: starting container process caused: process_linux.go:130: executing setns process caused: fork/exec /proc/self/exe: resource temporarily unavailable: unknown", false},
		{"Error response from daemon: Container 0123 is paused, unpause the container before exec", false},
	} {
		if got := runtimeSaysStopped(errors.New(tc.msg)); got != tc.want {
			t.Errorf("runtimeSaysStopped(%q) = %v, want %v", tc.msg, got, tc.want)
		}
	}
	if runtimeSaysStopped(nil) {
		t.Error("runtimeSaysStopped(nil) = true")
	}
}
