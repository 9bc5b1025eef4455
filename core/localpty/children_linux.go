package localpty

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// forker runs cmd.Start calls on one OS thread, locked to a goroutine
// that lives while any child it started is unreaped: the kernel sends the
// parent-death signal when the thread that forked exits, and a Go thread
// exits when a goroutine locked to it ends, so no child may outlive the
// lock. Once every child is reaped the goroutine unlocks (the thread stays
// in the runtime's pool) and ends; the next start makes a new one.
var forker struct {
	mu   sync.Mutex
	refs int // children started on the current thread and not yet reaped
	jobs chan func()
}

func runForkThread(jobs <-chan func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread() // only once no child depends on the thread
	for f := range jobs {
		f()
	}
}

func startOnForkThread(cmd *exec.Cmd) error {
	forker.mu.Lock()
	if forker.jobs == nil {
		forker.jobs = make(chan func())
		go runForkThread(forker.jobs)
	}
	forker.refs++
	jobs := forker.jobs
	forker.mu.Unlock()
	errc := make(chan error, 1)
	jobs <- func() { errc <- cmd.Start() }
	err := <-errc
	if err != nil {
		releaseForkThread()
	}
	return err
}

// releaseForkThread is called once per started child when it is reaped.
func releaseForkThread() {
	forker.mu.Lock()
	defer forker.mu.Unlock()
	if forker.refs--; forker.refs == 0 {
		close(forker.jobs)
		forker.jobs = nil
	}
}

func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
