package localpty

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// askAgent is a daemon in the shape of gpg-agent: with --daemon, the
// process that listens forks the daemon and exits. A client connects to
// its UNIX socket and sends the name of its terminal; a child of the
// daemon (pinentry) opens that terminal, turns echo and canonical mode off,
// asks for a passphrase and reads it key by key; the daemon answers the
// client with the passphrase's length.
const askAgent = `import os, socket, sys, termios
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1] + ".new"); s.listen(4)
if len(sys.argv) > 2:  # --daemon: the process that listened forks and exits
    if os.fork():
        os._exit(0)
    os.setsid()
os.rename(sys.argv[1] + ".new", sys.argv[1])
while True:
    c, _ = s.accept()
    tty = c.recv(256).decode()
    r, w = os.pipe()
    if os.fork() == 0:
        fd = os.open(tty, os.O_RDWR | os.O_NOCTTY)
        old = termios.tcgetattr(fd)
        raw = termios.tcgetattr(fd)
        raw[3] &= ~(termios.ECHO | termios.ICANON)
        termios.tcsetattr(fd, termios.TCSANOW, raw)
        os.write(fd, b"Passphrase: ")
        got = b""
        while not got.endswith((b"\r", b"\n")):
            got += os.read(fd, 1)
        termios.tcsetattr(fd, termios.TCSANOW, old)
        os.write(fd, b"\r\n")
        os.write(w, got[:-1])
        os._exit(0)
    os.close(w)
    got = os.read(r, 4096)
    os.close(r)
    os.wait()
    c.sendall(str(len(got)).encode())
    c.close()
`

// askClient is the agent's client (gpg): it waits on the socket alone,
// never on the terminal, while the agent's child reads the terminal.
const askClient = `import os, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(os.ttyname(0).encode())
print("the agent read", s.recv(64).decode(), "bytes")
`

// A program that waits on a UNIX socket for a daemon whose child reads
// the terminal (gpg waiting for gpg-agent's pinentry, emacsclient -t for
// the emacs daemon) waits for input: the send settles on the read as
// stdin_read, as if the program read the terminal itself, and the
// terminal's reader names the daemon's child. Without it, the send waited
// out its quiet window and settled inferred_idle with the program "busy".
func TestProgramWaitingOnADaemonThatReadsTheTerminal(t *testing.T) {
	need(t, "python3")
	dir := t.TempDir()
	agent, client := filepath.Join(dir, "agent.py"), filepath.Join(dir, "client.py")
	mustf(t, os.WriteFile(agent, []byte(askAgent), 0o600), "write the agent")
	mustf(t, os.WriteFile(client, []byte(askClient), 0o600), "write the client")
	ask := func(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, sock string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
		defer cancel()
		res := sendRequest(ctx, t, svc, owner, id, core.SendRequest{Data: "python3 " + client + " " + sock, QuietWindow: 3 * time.Second, Timeout: 2 * waitLimit})
		if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, "Passphrase: ") {
			t.Fatalf("the agent's child asks: settled as %s after %v with %q, want stdin_read at its question", res.WaitReason, res.Elapsed, res.Delta)
		}
		r, err := svc.Reader(owner, id)
		mustf(t, err, "reader")
		if !slices.ContainsFunc(r.Programs, func(p core.ReaderProgram) bool { return p.Reading && slices.Contains(p.Argv, agent) }) {
			t.Errorf("the terminal's reader does not name the agent's child as reading it: %+v", r)
		}
		wantPrompt(t, "the passphrase", sendWait(t, svc, owner, id, "hunter2"), "the agent read 7 bytes")
	}
	t.Run("a daemon outside the session", func(t *testing.T) {
		sock := filepath.Join(dir, "outside.sock")
		daemon := exec.Command("python3", agent, sock)
		daemon.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // a session of its own, as gpg-agent's
		mustf(t, daemon.Start(), "start the agent")
		t.Cleanup(func() {
			_ = syscall.Kill(-daemon.Process.Pid, syscall.SIGKILL)
			_ = daemon.Wait()
		})
		eventually(t, "the agent listens", func() bool { _, err := os.Stat(sock); return err == nil })
		svc, owner, info := shellService(t, core.SpawnRequest{})
		ask(t, svc, owner, info.ID, sock)
	})
	t.Run("a daemon the session started, which forked after it listened", func(t *testing.T) {
		sock := filepath.Join(dir, "inside.sock")
		svc, owner, info := shellService(t, core.SpawnRequest{})
		wantPrompt(t, "start the agent", sendWait(t, svc, owner, info.ID, "python3 "+agent+" "+sock+" --daemon; echo started"), "started")
		eventually(t, "the agent listens", func() bool { _, err := os.Stat(sock); return err == nil })
		ask(t, svc, owner, info.ID, sock)
	})
}
