package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// Each illegal jobs flag stops the server before it serves anything, with
// a message naming the flag and what it allows.
func TestJobFlagsRefuseIllegalValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the message
	}{
		{"buffer lines below", []string{"--jobs-buffer-lines", "99"}, []string{"--jobs-buffer-lines 99", "100 to 200000"}},
		{"buffer lines above", []string{"--jobs-buffer-lines", "200001"}, []string{"--jobs-buffer-lines 200001", "100 to 200000"}},
		{"buffer lines zero", []string{"--jobs-buffer-lines", "0"}, []string{"--jobs-buffer-lines 0", "100 to 200000"}},
		{"buffer lines negative", []string{"--jobs-buffer-lines", "-5"}, []string{"--jobs-buffer-lines -5", "100 to 200000"}},
		{"stop grace below", []string{"--jobs-stop-grace", "49ms"}, []string{"--jobs-stop-grace 49ms", "50ms to 1m0s"}},
		{"stop grace above", []string{"--jobs-stop-grace", "60001ms"}, []string{"--jobs-stop-grace 1m0.001s", "50ms to 1m0s"}},
		{"stop grace zero", []string{"--jobs-stop-grace", "0s"}, []string{"--jobs-stop-grace 0s", "50ms to 1m0s"}},
		{"stop grace negative", []string{"--jobs-stop-grace", "-1s"}, []string{"--jobs-stop-grace -1s", "50ms to 1m0s"}},
		{"backend unknown", []string{"--jobs-backend", "tty"}, []string{`--jobs-backend "tty"`, `"pty", "pipe" or "auto"`}},
		{"backend empty", []string{"--jobs-backend", ""}, []string{`--jobs-backend ""`, `"pty", "pipe" or "auto"`}},
		{"group empty", []string{"--jobs-default-group", ""}, []string{"--jobs-default-group", "must not be empty"}},
		{"group too long", []string{"--jobs-default-group", strings.Repeat("g", 201)}, []string{"--jobs-default-group", "at most 200 bytes"}},
		{"group control character", []string{"--jobs-default-group", "a\x01b"}, []string{"--jobs-default-group", "control characters"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runMCP(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != 2 {
				t.Fatalf("exit code %d, want 2 (stderr %q)", code, stderr.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not say %q", stderr.String(), w)
				}
			}
			if stdout.Len() != 0 {
				t.Errorf("the server wrote %q before refusing its flags", stdout.String())
			}
		})
	}
}

// The jobs flags reach the jobs: the default group, the backend and the
// lines kept.
func TestJobFlagsConfigureTheJobs(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t, "--tools", "full", "--jobs-default-group", "build", "--jobs-backend", "pipe",
		"--jobs-buffer-lines", "100", "--jobs-stop-grace", "50ms", "--jobs-no-port-check"))
	launched, res := call(t, cs, "bg_launch", map[string]any{"command": "sh", "args": []string{"-c",
		"i=0; while [ $i -lt 300 ]; do i=$((i+1)); echo line$i; done"}})
	if res.IsError {
		t.Fatalf("bg_launch: %+v", res)
	}
	if text := resultText(res); launched["status"] != "running" || !strings.Contains(text, `group "build", backend pipe`) {
		t.Fatalf("launch %v %q; want group build, backend pipe", launched, text)
	}
	deadline := time.Now().Add(testenv.HangBound)
	for {
		list, res := call(t, cs, "bg_list", map[string]any{})
		if res.IsError {
			t.Fatalf("bg_list: %+v", res)
		}
		jobs, _ := list["jobs"].([]any)
		if len(jobs) != 1 {
			t.Fatalf("bg_list: %+v", list)
		}
		job, _ := jobs[0].(map[string]any)
		out, _ := job["output"].(map[string]any)
		if job["status"] != "running" && out["lines"] == float64(300) {
			if out["retained"] != float64(100) || out["first"] != float64(200) {
				t.Fatalf("output %+v: want the last 100 of 300 lines kept", out)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job never ended with its 300 lines: %+v", job)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
