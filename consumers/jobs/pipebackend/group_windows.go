package pipebackend

import (
	"errors"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procGroup is the set of processes a session's signals and teardown
// address as one: on Windows a Job Object holding the program and every
// process it starts, created with kill-on-close so that the processes end
// when the last handle to it closes, including when this process dies.
// The program is assigned to the job just after it starts: a process it
// starts in that instant is outside the job.
type procGroup struct {
	j *jobObject
}

type jobObject struct {
	pid int
	mu  sync.Mutex
	h   windows.Handle // 0 once released
}

// errJobReleased is what a signal to a released group returns.
var errJobReleased = errors.New("pipebackend: the job object was released")

// sysProcAttr puts the program in a new console process group, the group
// a CTRL_BREAK event (SIGINT) is sent to.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// newProcGroup creates a kill-on-close Job Object and assigns the started
// program cmd to it.
func newProcGroup(cmd *exec.Cmd) (procGroup, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return procGroup{}, err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return procGroup{}, err
	}
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return procGroup{}, err
	}
	err = windows.AssignProcessToJobObject(job, ph)
	_ = windows.CloseHandle(ph)
	if err != nil {
		_ = windows.CloseHandle(job)
		return procGroup{}, err
	}
	return procGroup{j: &jobObject{pid: cmd.Process.Pid, h: job}}, nil
}

// terminatedExitCode is the exit code of the processes a SIGTERM, SIGHUP,
// SIGQUIT or SIGKILL ends: Windows has no signals, only termination.
const terminatedExitCode = 1

// signal delivers sig the way Windows allows: SIGINT as a CTRL_BREAK
// event to the program's console process group, SIGTERM, SIGHUP, SIGQUIT
// and SIGKILL as the termination of every process of the job (there is
// no grace on Windows). Other signals are refused with syscall.EWINDOWS.
func (g procGroup) signal(sig syscall.Signal) error {
	g.j.mu.Lock()
	defer g.j.mu.Unlock()
	if g.j.h == 0 {
		return errJobReleased
	}
	switch sig {
	case syscall.SIGINT:
		return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(g.j.pid))
	case syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGKILL:
		return windows.TerminateJobObject(g.j.h, terminatedExitCode)
	}
	return syscall.EWINDOWS
}

// resume does nothing: Windows processes are not stopped by signals.
func (g procGroup) resume() {}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// live reports whether a process of the job is still running.
func (g procGroup) live() bool {
	g.j.mu.Lock()
	defer g.j.mu.Unlock()
	if g.j.h == 0 {
		return false
	}
	var acc jobAccounting
	err := windows.QueryInformationJobObject(g.j.h, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&acc)), uint32(unsafe.Sizeof(acc)), nil)
	return err == nil && acc.ActiveProcesses > 0
}

// exists is live: an exited Windows process leaves no zombie in the job.
func (g procGroup) exists() bool { return g.live() }

// release closes the job's handle; whatever still runs in it ends.
func (g procGroup) release() {
	g.j.mu.Lock()
	defer g.j.mu.Unlock()
	if g.j.h != 0 {
		_ = windows.CloseHandle(g.j.h)
		g.j.h = 0
	}
}
