package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession"
)

// demo holds what every section shares: one service, one owner (the
// "agent"), the facade, and where to print.
type demo struct {
	svc      *core.Service
	sessions *ptysession.Sessions
	owner    *core.Owner
	out      io.Writer
	marker   string // inherited by every process the demo starts
	failed   bool
}

// runDemo shows the library doing its real work, section by section.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "ptyseam demo takes no arguments\n")
		return 2
	}
	marker := fmt.Sprintf("demo-%d-%d", os.Getpid(), time.Now().UnixNano())
	os.Setenv("PTYSEAM_DEMO_RUN", marker)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := core.New(core.Options{Logger: log})
	if err := localpty.Register(svc); err != nil {
		fmt.Fprintf(stderr, "demo: %v\n", err)
		return 1
	}
	d := &demo{
		svc:      svc,
		sessions: ptysession.New(svc, ptysession.Options{}),
		owner:    core.NewOwner("demo-agent"),
		out:      stdout,
		marker:   "PTYSEAM_DEMO_RUN=" + marker,
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	start := time.Now()
	for _, s := range demoSections {
		d.section(s.title)
		if err := s.run(ctx, d); err != nil {
			d.failed = true
			fmt.Fprintf(d.out, "  FAILED: %v\n", err)
		}
	}
	d.section("Shut down")
	sctx, scancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer scancel()
	if err := svc.Shutdown(sctx); err != nil {
		d.failed = true
		fmt.Fprintf(d.out, "  shutdown failed: %v\n", err)
	}
	left := survivors(d.marker)
	fmt.Fprintf(d.out, "  processes the demo started that are still alive: %d\n", len(left))
	if len(left) > 0 {
		d.failed = true
	}
	fmt.Fprintf(d.out, "\ndemo finished in %.1fs", time.Since(start).Seconds())
	if d.failed {
		fmt.Fprintln(d.out, " WITH FAILURES")
		return 1
	}
	fmt.Fprintln(d.out, ", all sections passed")
	return 0
}

// demoSection is one titled part of the demo.
type demoSection struct {
	title string
	run   func(context.Context, *demo) error
}

var demoSections = []demoSection{
	{"1. A persistent shell: state survives between sends; tails are incremental", demoShell},
	{"2. A Python REPL: the '>>> ' prompt is visible without a newline", demoPython},
	{"3. A program asking for a password", demoPassword},
	{"4. A command that does not finish: a timeout returns control, SIGINT reaches its foreground group", demoSignal},
	{"5. gdb through GDB/MI on a ptyseam session", demoGDB},
	{"6. ssh: a remote shell on the in-process SSH test server", demoSSH},
	{"7. A background job: a web server, its address detected, its log filtered", demoJobs},
	{"8. Close leaves no process behind, not even a setsid double fork", demoClose},
}

func (d *demo) section(title string) {
	fmt.Fprintf(d.out, "\n== %s\n", title)
}

// show prints a labelled block of terminal text, indented.
func (d *demo) show(label, text string) {
	fmt.Fprintf(d.out, "  %s:\n", label)
	text = strings.TrimRight(text, "\n")
	if text == "" {
		fmt.Fprintln(d.out, "    (nothing)")
		return
	}
	for _, l := range strings.Split(text, "\n") {
		fmt.Fprintf(d.out, "    | %s\n", l)
	}
}

// send types data into a session and reports how and why it returned.
func (d *demo) send(ctx context.Context, id core.SessionID, data string) (ptysession.SendResult, error) {
	start := time.Now()
	res, err := d.sessions.Send(ctx, d.owner, id, ptysession.SendRequest{Data: data})
	if err != nil {
		return res, err
	}
	fmt.Fprintf(d.out, "  send %q -> wait reason %s after %s, status %s\n", data, res.WaitReason, time.Since(start).Round(10*time.Microsecond), res.Status)
	return res, nil
}

func expect(cond bool, format string, args ...any) error {
	if cond {
		return nil
	}
	return fmt.Errorf(format, args...)
}

func demoShell(ctx context.Context, d *demo) error {
	s, err := d.sessions.Open(ctx, d.owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  opened %s (pid %d) on a PTY running bash\n", s.SessionID, s.PID)
	if _, err := d.send(ctx, s.SessionID, "cd /tmp && GREETING='hello from a persistent shell'"); err != nil {
		return err
	}
	res, err := d.send(ctx, s.SessionID, `echo "$GREETING in $PWD"; seq 1 5`)
	if err != nil {
		return err
	}
	d.show("output of the second send", res.Delta)
	if err := expect(strings.Contains(res.Delta, "hello from a persistent shell in /tmp"), "state was lost between sends"); err != nil {
		return err
	}
	// Output is returned once: the send's delta moved the tail position,
	// so a tail returns only what was printed after it.
	if _, err := d.send(ctx, s.SessionID, "(sleep 0.2; for i in 1 2 3; do echo step-$i; done) &"); err != nil {
		return err
	}
	var t1 ptysession.TailResult
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(t1.Text, "step-3") && time.Now().Before(deadline); {
		t, err := d.sessions.Tail(ctx, d.owner, s.SessionID, 0)
		if err != nil {
			return err
		}
		t1.Text, t1.Lines = t1.Text+t.Text, t1.Lines+t.Lines
		if t.Text == "" {
			time.Sleep(50 * time.Millisecond)
		}
	}
	d.show(fmt.Sprintf("tail: %d new lines, printed in the background after the send returned", t1.Lines), t1.Text)
	t2, err := d.sessions.Tail(ctx, d.owner, s.SessionID, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  tail again: %d new lines (output is returned once)\n", t2.Lines)
	return expect(strings.Contains(t1.Text, "step-3") && !strings.Contains(t1.Text, "sleep 0.2") && t2.Text == "", "tail was not incremental")
}

func demoPython(ctx context.Context, d *demo) error {
	s, err := d.sessions.Open(ctx, d.owner, ptysession.OpenRequest{Command: "python3 -q"})
	if err != nil {
		return err
	}
	d.show("initial output (it ends with the prompt, which has no newline)", s.InitialOutput)
	res, err := d.send(ctx, s.SessionID, "sum(range(101))")
	if err != nil {
		return err
	}
	d.show("output", res.Delta)
	return expect(strings.Contains(res.Delta, "5050") && strings.HasSuffix(res.Delta, ">>> "), "the REPL answer or prompt is missing")
}

func demoPassword(ctx context.Context, d *demo) error {
	s, err := d.sessions.Open(ctx, d.owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		return err
	}
	res, err := d.send(ctx, s.SessionID, `read -s -p 'Password: ' pw; echo; [ "$pw" = opensesame ] && echo ACCESS GRANTED || echo DENIED`)
	if err != nil {
		return err
	}
	d.show("the prompt is there at once", res.Delta)
	if err := expect(res.WaitReason == core.WaitStdinRead, "wait reason %s, want stdin_read", res.WaitReason); err != nil {
		return err
	}
	res, err = d.send(ctx, s.SessionID, "opensesame")
	if err != nil {
		return err
	}
	d.show("after answering (the terminal's echo is off, the secret does not appear)", res.Delta)
	return expect(strings.Contains(res.Delta, "ACCESS GRANTED") && !strings.Contains(res.Delta, "opensesame"), "password exchange failed")
}

func demoSignal(ctx context.Context, d *demo) error {
	s, err := d.sessions.Open(ctx, d.owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := d.sessions.Send(ctx, d.owner, s.SessionID, ptysession.SendRequest{Data: "sleep 600", Timeout: 300 * time.Millisecond})
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  send \"sleep 600\" with a 300ms timeout -> wait reason %s after %s, status %s (the shell lives on)\n",
		res.WaitReason, time.Since(start).Round(time.Millisecond), res.Status)
	sig, err := d.sessions.Signal(ctx, d.owner, s.SessionID, "SIGINT")
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  signal SIGINT -> delivered %v to the foreground process group %d (sleep's, not the shell's: leader %v)\n", sig.Delivered, sig.TargetPGID, sig.Leader)
	time.Sleep(100 * time.Millisecond) // let the shell take the terminal back before typing
	after, err := d.send(ctx, s.SessionID, "echo exit status $?")
	if err != nil {
		return err
	}
	d.show("the shell is back", after.Delta)
	return expect(res.WaitReason == core.WaitTimeout && sig.Delivered && !sig.Leader && strings.Contains(after.Delta, "exit status 130"),
		"sleep was not interrupted in the foreground group")
}

func demoClose(ctx context.Context, d *demo) error {
	s, err := d.sessions.Open(ctx, d.owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		return err
	}
	pidFile := fmt.Sprintf("%s/ptyseam-demo-%d.pid", os.TempDir(), os.Getpid())
	defer os.Remove(pidFile)
	if _, err := d.send(ctx, s.SessionID, fmt.Sprintf(`(setsid sh -c 'trap "" TERM HUP; sleep 600 & echo $! > %s' &); sleep 0.2`, pidFile)); err != nil {
		return err
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	var pid int
	fmt.Sscan(strings.TrimSpace(string(b)), &pid)
	fmt.Fprintf(d.out, "  a grandchild escaped with setsid and a double fork, ignoring SIGTERM and SIGHUP: pid %d, alive %v\n", pid, alive(pid))
	start := time.Now()
	res, err := d.sessions.Close(ctx, d.owner, s.SessionID)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  close -> closed %v in %s; pid %d alive %v\n", res.Closed, time.Since(start).Round(time.Millisecond), pid, alive(pid))
	again, err := d.sessions.Close(ctx, d.owner, s.SessionID)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  close again -> closed %v (idempotent)\n", again.Closed)
	return expect(res.Closed && !again.Closed && !alive(pid), "the escaped grandchild survived")
}
