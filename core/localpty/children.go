package localpty

import (
	"os/exec"
	"sync"
)

// children are the processes this process started through StartChild and
// has not yet reaped with WaitChild. A subreaper (see BecomeSubreaper)
// tells them apart from the escapees it adopts: any other child of this
// process is an adopted orphan. childMu is held for reading from fork to
// registration, and for writing by the reaper, so that the reaper never
// takes a fresh child for an escapee; mapMu guards the map.
var (
	childMu  sync.RWMutex
	mapMu    sync.Mutex
	children = make(map[int]struct{})
)

// StartChild starts cmd like cmd.Start, from a thread that never exits and
// with the parent-death signal set to SIGKILL on Linux: if this process
// dies, even of SIGKILL, the child is killed with it. (The kernel sends
// the parent-death signal when the thread that forked exits, and Go forks
// from whichever thread runs the goroutine; hence a thread kept locked
// while any child started on it is unreaped.) Every child StartChild
// started must be reaped with WaitChild.
// A caller that made its process a subreaper must start every child
// through StartChild and reap it with WaitChild.
func StartChild(cmd *exec.Cmd) error {
	childMu.RLock()
	defer childMu.RUnlock()
	setParentDeathSignal(cmd)
	if err := startOnForkThread(cmd); err != nil {
		return err
	}
	mapMu.Lock()
	children[cmd.Process.Pid] = struct{}{}
	mapMu.Unlock()
	return nil
}

// WaitChild waits for a child started by StartChild, like cmd.Wait, and
// forgets it.
func WaitChild(cmd *exec.Cmd) error {
	err := cmd.Wait()
	mapMu.Lock()
	delete(children, cmd.Process.Pid)
	mapMu.Unlock()
	releaseForkThread()
	return err
}

// isStartedChild reports whether pid is a child started by StartChild.
func isStartedChild(pid int) bool {
	mapMu.Lock()
	defer mapMu.Unlock()
	_, ok := children[pid]
	return ok
}
