package localpty_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// readAll reads a session's output until io.EOF.
func readAll(s core.BackendSession) []byte {
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := s.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out
		}
	}
}

// Run a program on a terminal, read everything it printed, and get its
// exit status.
func ExampleNewExec() {
	ctx := context.Background()
	b := localpty.NewExec(localpty.ExecOptions{})
	s, err := b.Spawn(ctx, core.BackendRequest{
		Command: []string{"sh", "-c", "echo hello from a pty; exit 3"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = s.Close(ctx) }()
	out := readAll(s) // the terminal turns "\n" into "\r\n"
	<-s.Exited()
	fmt.Printf("%q\n", out)
	fmt.Println(s.ExitStatus())
	// Output:
	// "hello from a pty\r\n"
	// exited 3
}

// Drive an interactive shell: the prompt marker (OSC 133;D;<status>;...)
// tells when a command finished and how.
func ExampleNewShell() {
	ctx := context.Background()
	b := localpty.NewShell(localpty.ShellOptions{})
	s, err := b.Spawn(ctx, core.BackendRequest{})
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make(chan []byte)
	go func() { out <- readAll(s) }()
	_, _ = s.Write(ctx, []byte("echo $((6*7)); false\r"))
	_, _ = s.Write(ctx, []byte("exit\r"))
	all := <-out // the shell exited: its output ends
	_ = s.Close(ctx)

	statuses := regexp.MustCompile("\x1b]133;D;(\\d+);").FindAllSubmatch(all, -1)
	fmt.Println("42 printed:", bytes.Contains(all, []byte("42\r\n")))
	fmt.Println("status of the command line:", string(statuses[len(statuses)-1][1]))
	fmt.Println(s.ExitStatus())
	// Output:
	// 42 printed: true
	// status of the command line: 1
	// exited 1
}

// Register both backend types with a service.
func ExampleRegister() {
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(svc.Backends())
	// Output:
	// [exec shell]
}

// Give a bash that is already running (a remote login shell) the shell
// type's set-up: type ShellSetup once. Its prompts then carry the marker
// the service settles on, "!" is literal and pagers print.
func ExampleShellSetup() {
	setup := localpty.ShellSetup()
	fmt.Println(strings.HasPrefix(setup, "set +H; export PAGER=cat GIT_PAGER=cat SYSTEMD_PAGER=cat MANPAGER=cat; PS1="))
	fmt.Println(strings.Contains(setup, "PROMPT_COMMAND="))
	// Output:
	// true
	// true
}
