package main

import (
	"bufio"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ptyseam/ptyseam/core/promptmark"
)

// The prompt markers, as a shell's prompt would print them.
var markPromptEnd, markCommandEnd = promptmark.PromptEnd, promptmark.CommandEnd(0)

// repl is the echo REPL's state. Input is read only at the prompt, on the
// main goroutine, so that while it sleeps no thread waits on the terminal.
type repl struct {
	marker bool

	mu        sync.Mutex
	sleeping  bool
	interrupt chan struct{} // receives a SIGINT that arrives during a sleep
}

func runEchoREPL(args []string) int {
	r := &repl{interrupt: make(chan struct{}, 1)}
	for _, a := range args {
		switch a {
		case "--marker":
			r.marker = true
		default:
			return fail("echo-repl: unknown argument %q", a)
		}
	}
	return r.run()
}

func (r *repl) prompt(afterCommand bool) {
	s := "> "
	if r.marker {
		if afterCommand {
			s = markCommandEnd + s
		}
		s += markPromptEnd
	}
	writeOut(s)
}

func (r *repl) run() int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT)
	go r.handleInterrupts(sigs)

	in := bufio.NewReader(os.Stdin)
	r.prompt(false)
	for {
		line, err := in.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		if err != nil && line == "" {
			if err == io.EOF {
				return 0
			}
			return 1
		}
		switch {
		case line == "exit":
			writeOut("bye\n")
			return 0
		case strings.HasPrefix(line, "sleep "):
			d, perr := time.ParseDuration(strings.TrimSpace(strings.TrimPrefix(line, "sleep ")))
			if perr != nil {
				writeOut("bad duration\n")
			} else {
				r.sleep(d)
			}
		default:
			writeOut(line + "\n")
		}
		r.prompt(true)
	}
}

// sleep waits d without reading input; a SIGINT ends it early.
func (r *repl) sleep(d time.Duration) {
	r.mu.Lock()
	r.sleeping = true
	r.mu.Unlock()
	writeOut("sleeping\n")
	t := time.NewTimer(d)
	select {
	case <-t.C:
	case <-r.interrupt:
		t.Stop()
		writeOut("interrupted\n")
	}
	r.mu.Lock()
	r.sleeping = false
	r.mu.Unlock()
}

// handleInterrupts turns SIGINT into "interrupted" and a new prompt, as an
// interactive interpreter does, or ends a sleep.
func (r *repl) handleInterrupts(sigs <-chan os.Signal) {
	for range sigs {
		r.mu.Lock()
		sleeping := r.sleeping
		r.mu.Unlock()
		if sleeping {
			select {
			case r.interrupt <- struct{}{}:
			default:
			}
			continue
		}
		writeOut("interrupted\n")
		r.prompt(false)
	}
}

func runSlowPrompt(args []string) int {
	if len(args) != 1 {
		return fail("usage: slow-prompt DURATION")
	}
	d, err := time.ParseDuration(args[0])
	if err != nil {
		return fail("slow-prompt: %v", err)
	}
	time.Sleep(d)
	return runEchoREPL(nil)
}

// writeOut writes s to standard output, ignoring errors (the terminal may
// be gone; the program then dies of SIGHUP or exits on EOF).
func writeOut(s string) {
	_, _ = os.Stdout.WriteString(s)
}

// sleepForever blocks until the process is killed.
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}
