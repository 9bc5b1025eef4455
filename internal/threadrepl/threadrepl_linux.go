package threadrepl

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// Run runs the REPL on file descriptors 0 (input) and 1 (output); it
// returns the exit code.
func Run() int {
	// A collection stops every thread, which can put a reading thread to
	// sleep between its padding and its read; the program allocates little.
	debug.SetGCPercent(-1)
	writeOut("> ")
	for {
		line, err := readLine()
		if err != nil {
			if err == io.EOF {
				return 0
			}
			fmt.Fprintf(os.Stderr, "thread-repl: %v\n", err)
			return 1
		}
		if line == "exit" {
			writeOut("bye\n")
			return 0
		}
		writeOut(line + "\n> ")
	}
}

// result is a line read, or why none was.
type result struct {
	line string
	err  error
}

// readLine reads one line on a new OS thread, padded to Target.
func readLine() (string, error) {
	done := make(chan result, 1)
	go readOnFreshThread(done, 0)
	r := <-done
	return r.line, r.err
}

// maxRejects bounds the threads readOnFreshThread turns down for one line.
const maxRejects = 64

// readOnFreshThread locks the goroutine to its thread, never unlocked: the
// thread ends with the goroutine, so the next line is read on another
// one. The runtime may run a new goroutine on a thread it used before
// (idle threads that woke often: more than half of Target switches); such
// a thread is kept busy, locked to this goroutine, while another goroutine
// tries another thread, until one is fresh enough to pad.
func readOnFreshThread(done chan<- result, rejected int) {
	runtime.LockOSThread()
	if c, err := voluntarySwitches(); err == nil && c > Target/2 && rejected < maxRejects {
		next := make(chan result, 1)
		go readOnFreshThread(next, rejected+1)
		done <- <-next
		return
	}
	line, err := readOnThisThread()
	done <- result{line, err}
}

// readOnThisThread pads the thread's voluntary switches to Target-1, then
// reads until a newline (in canonical mode, one read).
func readOnThisThread() (string, error) {
	n, err := padSwitches(Target - 1)
	if err != nil {
		return "", err
	}
	if n != Target-1 {
		// The premise of the program fails: say so where a test sees it.
		fmt.Fprintf(os.Stderr, "thread-repl: thread %d already had %d voluntary switches, more than %d\n", syscall.Gettid(), n, Target-1)
	}
	var line []byte
	buf := make([]byte, 4096)
	for {
		k, err := syscall.Read(0, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("read: %w", err)
		}
		if k == 0 {
			if len(line) == 0 {
				return "", io.EOF
			}
			return string(line), nil
		}
		line = append(line, buf[:k]...)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			return string(bytes.TrimRight(line[:i], "\r")), nil
		}
	}
}

// padSwitches sleeps briefly until the calling thread has at least n
// voluntary context switches (each sleep is one) and returns its count.
//
// The Go scheduler asks a goroutine that has run for 10 ms without being
// rescheduled (system calls included) to yield, which puts this locked
// thread to sleep once more at its next function call: after the last
// check, that would make the read block with one switch too many. So
// while far from n the goroutine yields on every round (a fresh 10 ms),
// and only the last few rounds are bare sleeps.
func padSwitches(n uint64) (uint64, error) {
	for {
		c, err := voluntarySwitches()
		if err != nil || c >= n {
			return c, err
		}
		if c+4 < n {
			runtime.Gosched()
		}
		ts := syscall.Timespec{Nsec: 20_000}
		_ = syscall.Nanosleep(&ts, nil)
	}
}

// voluntarySwitches returns the calling thread's voluntary context
// switches.
func voluntarySwitches() (uint64, error) {
	b, err := os.ReadFile("/proc/thread-self/status")
	if err != nil {
		return 0, err
	}
	st, err := procfs.ParseStatus(b)
	if err != nil {
		return 0, err
	}
	return st.VoluntarySwitches, nil
}

// writeOut writes s to standard output, ignoring errors (the terminal may
// be gone; the program then dies of SIGHUP or exits on end of input).
func writeOut(s string) {
	_, _ = os.Stdout.WriteString(s)
}
