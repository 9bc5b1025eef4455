package sshagent

import (
	"os/exec"
	"testing"
)

// TestStartScriptAnswers runs the start script under sh with a fake
// uname and cache: it answers unknown, missing or mismatch, and execs
// only the file whose SHA-256 is the one it was named for.
func TestStartScriptAnswers(t *testing.T) {
	home := t.TempDir()
	run := func(bins []binary, machine string) (string, error) {
		t.Helper()
		script := `uname() { echo Linux ` + machine + `; }; ` + startScript(bins)
		cmd := exec.Command("sh", "-c", script)
		cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// The SHA-256 of "#!/bin/sh\necho started \"$@\"\n".
	body := "#!/bin/sh\necho started \"$@\"\n"
	sum := sha256Hex(t, body)
	bins := []binary{{platform: "linux/amd64", sum: sum}}
	want := func(out, status string) {
		t.Helper()
		a, ok := parseStartAnswer(out)
		if !ok || a.status != status || a.kernel != "Linux" || a.cacheDir != home+"/.cache/ptyseam" {
			t.Fatalf("answer %+v %v, want %s; output %q", a, ok, status, out)
		}
	}
	out, _ := run(bins, "riscv64")
	want(out, startUnknown)
	if a, _ := parseStartAnswer(out); a.machine != "riscv64" {
		t.Fatalf("machine %q", a.machine)
	}
	out, _ = run(bins, "x86_64")
	want(out, startMissing)
	writeFile(t, home+"/.cache/ptyseam/"+agentName(sum), body+"# changed\n")
	out, _ = run(bins, "x86_64")
	want(out, startMismatch)
	writeFile(t, home+"/.cache/ptyseam/"+agentName(sum), body)
	out, err := run(bins, "x86_64")
	if err != nil || out != "started agent\n" {
		t.Fatalf("a checked cached agent: %q, %v", out, err)
	}
	// A binary that could not be read is never chosen.
	out, _ = run([]binary{{platform: "linux/amd64", sum: sum, err: errTest}}, "x86_64")
	want(out, startUnknown)
}

func TestParseStartAnswer(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		want startAnswer
	}{
		{"ptyseam-start-answer missing\nLinux\nx86_64\n/home/u/.cache/ptyseam", true, startAnswer{startMissing, "Linux", "x86_64", "/home/u/.cache/ptyseam"}},
		{"motd\r\nptyseam-start-answer unknown\r\nLinux\r\nmips\r\n/c\r\nstderr words", true, startAnswer{startUnknown, "Linux", "mips", "/c"}},
		{"ptyseam-start-answer mismatch\nLinux\nx86_64", false, startAnswer{}},
		{"ptyseam-start-answer maybe\nLinux\nx86_64\n/c", false, startAnswer{}},
		{"bash: /x: No such file or directory", false, startAnswer{}},
		{"", false, startAnswer{}},
	} {
		got, ok := parseStartAnswer(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("parseStartAnswer(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParseStartAnswer: any output parses or is refused without a panic,
// and an answer is one of the statuses.
func FuzzParseStartAnswer(f *testing.F) {
	f.Add("ptyseam-start-answer missing\nLinux\nx86_64\n/home/u/.cache/ptyseam")
	f.Add("ptyseam-start-answer unknown\n")
	f.Fuzz(func(t *testing.T, out string) {
		a, ok := parseStartAnswer(out)
		if ok && a.status != startUnknown && a.status != startMissing && a.status != startMismatch {
			t.Fatalf("status %q", a.status)
		}
	})
}
