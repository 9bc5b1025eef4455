package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/ptyseam/ptyseam/core"
)

const promptEnd = "\x1b]133;B\x07"

var shellArgv = []string{"bash", "--noprofile", "--norc", "-i"}

// rawShell is a bash on a bare PTY with the same prompt marker.
type rawShell struct {
	cmd *exec.Cmd
	f   *os.File
	buf []byte
}

func startRawShell(b *testing.B) *rawShell {
	cmd := exec.Command(shellArgv[0], shellArgv[1:]...)
	cmd.Env = shellEnv()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		b.Fatal(err)
	}
	r := &rawShell{cmd: cmd, f: f, buf: make([]byte, 64<<10)}
	r.readUntilPrompt(b)
	return r
}

// readUntilPrompt reads until the output so far ends with the prompt marker.
func (r *rawShell) readUntilPrompt(b *testing.B) {
	if err := r.untilPrompt(); err != nil {
		b.Fatal(err)
	}
}

// untilPrompt is readUntilPrompt returning its error (for goroutines).
func (r *rawShell) untilPrompt() error {
	var acc []byte
	for {
		n, err := r.f.Read(r.buf)
		if err != nil {
			return err
		}
		acc = append(acc, r.buf[:n]...)
		if bytes.HasSuffix(acc, []byte(promptEnd)) {
			return nil
		}
	}
}

func (r *rawShell) roundTrip(b *testing.B) time.Duration {
	start := time.Now()
	if _, err := r.f.Write([]byte("true\r")); err != nil {
		b.Fatal(err)
	}
	r.readUntilPrompt(b)
	return time.Since(start)
}

func (r *rawShell) close() {
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
	_ = r.f.Close()
}

// expectShell is the same bash driven by Netflix/go-expect.
type expectShell struct {
	c   *expect.Console
	cmd *exec.Cmd
}

func startExpectShell(b *testing.B) *expectShell {
	c, err := expect.NewConsole()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(shellArgv[0], shellArgv[1:]...)
	cmd.Env = shellEnv()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Tty(), c.Tty(), c.Tty()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if _, err := c.ExpectString(promptEnd); err != nil {
		b.Fatal(err)
	}
	return &expectShell{c: c, cmd: cmd}
}

func (e *expectShell) roundTrip(b *testing.B) time.Duration {
	start := time.Now()
	if _, err := e.c.Send("true\r"); err != nil {
		b.Fatal(err)
	}
	if _, err := e.c.ExpectString(promptEnd); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

func (e *expectShell) close() {
	_ = e.cmd.Process.Kill()
	_ = e.cmd.Wait()
	_ = e.c.Close()
}

// tmuxShell is the same bash in a tmux pane, driven by send-keys and
// polling capture-pane, as tmux-backed agent servers do.
type tmuxShell struct {
	sock string
	n    int
}

// startTmuxShell returns nil, after logging why, when tmux is not
// installed (it fails b when [strict]): the other sides still run.
func startTmuxShell(b *testing.B) *tmuxShell {
	if _, err := exec.LookPath("tmux"); err != nil {
		if strict() {
			b.Fatal("tmux not installed (apt-get install tmux): no tmux peer")
		}
		b.Log("tmux not installed (apt-get install tmux): no tmux peer")
		return nil
	}
	t := &tmuxShell{sock: filepath.Join(b.TempDir(), "tmux.sock")}
	cmd := exec.Command("tmux", "-S", t.sock, "-f", "/dev/null", "new-session", "-d", "-s", "bench", "-x", "160", "-y", "40",
		"env", "PS1=READY$ ", "HISTFILE=", "bash", "--noprofile", "--norc", "-i")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("tmux: %v %s", err, out)
	}
	return t
}

func (t *tmuxShell) roundTrip(b *testing.B) time.Duration {
	t.n++
	mark := fmt.Sprintf("done-%d", t.n)
	start := time.Now()
	if out, err := exec.Command("tmux", "-S", t.sock, "send-keys", "-t", "bench", "true; echo "+mark, "Enter").CombinedOutput(); err != nil {
		b.Fatalf("send-keys: %v %s", err, out)
	}
	for {
		out, err := exec.Command("tmux", "-S", t.sock, "capture-pane", "-p", "-t", "bench").Output()
		if err != nil {
			b.Fatal(err)
		}
		if strings.Contains(string(out), "\n"+mark+"\nREADY$") {
			return time.Since(start)
		}
		if time.Since(start) > 10*time.Second {
			b.Fatalf("tmux never settled:\n%s", out)
		}
	}
}

func (t *tmuxShell) close() {
	if t == nil {
		return
	}
	_ = exec.Command("tmux", "-S", t.sock, "kill-server").Run()
}

// BenchmarkSettle measures the latency of `true` on an interactive shell:
// ptyseam's Send+Wait against the raw PTY round trip (write, read to the
// prompt marker), Netflix/go-expect's ExpectString on the same marker, and
// tmux send-keys + capture-pane polling. Samples interleave.
// PTYSEAM_BENCH_SETTLE_N sets the samples per side (default 2000: with
// fewer, a few slow round trips move the p50 ratio).
func BenchmarkSettle(b *testing.B) {
	n := envInt("PTYSEAM_BENCH_SETTLE_N", 2000)
	svc := newService(b, core.Options{})
	owner := core.NewOwner("bench")
	ctx := context.Background()
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		b.Fatal(err)
	}
	raw := startRawShell(b)
	defer raw.close()
	exp := startExpectShell(b)
	defer exp.close()
	tm := startTmuxShell(b)
	defer tm.close()

	var rawS, sessS, expS, tmuxS []time.Duration
	reasons := map[core.WaitReason]int{}
	for b.Loop() {
		for i := range n {
			rawS = append(rawS, raw.roundTrip(b))
			start := time.Now()
			op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: "true"})
			if err != nil {
				b.Fatal(err)
			}
			res, err := op.Wait(ctx)
			if err != nil {
				b.Fatal(err)
			}
			sessS = append(sessS, time.Since(start))
			reasons[res.WaitReason]++
			expS = append(expS, exp.roundTrip(b))
			if tm != nil && i%10 == 0 { // tmux is slow: a tenth of the samples
				tmuxS = append(tmuxS, tm.roundTrip(b))
			}
		}
	}
	if reasons[core.WaitPrompt] != len(sessS) {
		b.Errorf("not every send settled on the prompt: %v", reasons)
	}
	rawMed := percentile(rawS, 50)
	b.ReportMetric(ms(rawMed), "raw-p50-ms")
	b.ReportMetric(ms(percentile(rawS, 99)), "raw-p99-ms")
	b.ReportMetric(ms(percentile(sessS, 50)), "ptyseam-p50-ms")
	b.ReportMetric(ms(percentile(sessS, 99)), "ptyseam-p99-ms")
	b.ReportMetric(ms(percentile(expS, 50)), "goexpect-p50-ms")
	b.ReportMetric(ms(percentile(expS, 99)), "goexpect-p99-ms")
	if tm != nil {
		b.ReportMetric(ms(percentile(tmuxS, 50)), "tmux-p50-ms")
		b.ReportMetric(ms(percentile(tmuxS, 99)), "tmux-p99-ms")
		b.ReportMetric(float64(percentile(tmuxS, 50))/float64(rawMed), "tmux/raw-p50")
	}
	b.ReportMetric(float64(percentile(sessS, 50))/float64(rawMed), "ptyseam/raw-p50")
	b.ReportMetric(float64(percentile(expS, 50))/float64(rawMed), "goexpect/raw-p50")
	b.ReportMetric(float64(percentile(sessS, 50))/float64(percentile(expS, 50)), "ptyseam/goexpect-p50")
	b.ReportMetric(float64(percentile(sessS, 99))/float64(percentile(expS, 99)), "ptyseam/goexpect-p99")
}
