package conpty

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/ptyseam/ptyseam/core"
)

// Spawn starts the program on a new pseudo console, in a new Job Object.
// req.Options must be nil. An unusable req.Dir is a CodeInvalidArgument
// error and a program that cannot be started a CodeSpawnFailed error; both
// leave nothing behind.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	if err := ctx.Err(); err != nil {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Msg: "spawn cancelled", Err: err}
	}
	if req.Options != nil {
		return nil, core.Errorf(core.CodeInvalidArgument, "the ConPTY %s backend takes no options (got %T)", b.typ, req.Options)
	}
	argv, err := b.argv(req)
	if err != nil {
		return nil, err
	}
	if req.Dir != "" {
		fi, err := os.Stat(req.Dir)
		if err != nil {
			return nil, &core.Error{Code: core.CodeInvalidArgument, Msg: "unusable working directory", Err: err}
		}
		if !fi.IsDir() {
			return nil, core.Errorf(core.CodeInvalidArgument, "unusable working directory: %s is not a directory", req.Dir)
		}
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Msg: "program not found", Err: err}
	}
	size := req.Size
	if size.Rows == 0 || size.Cols == 0 {
		size = core.DefaultSize
	}
	marker := req.Marker
	env := mergeEnv(os.Environ(), req.Env)
	if marker != "" {
		env = mergeEnv(env, []string{MarkerEnv + "=" + marker})
	}
	s, err := start(b, prog, argv, req.Dir, env, size)
	if err != nil {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Msg: "cannot start the program on a pseudo console", Err: err}
	}
	if err := ctx.Err(); err != nil {
		cause := &core.Error{Code: core.CodeSpawnFailed, Msg: "spawn cancelled", Err: err}
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if cerr := s.Close(cctx); cerr != nil {
			var ce *core.CleanupError
			if errors.As(cerr, &ce) {
				ce.Cause = cause
				return nil, ce
			}
			return nil, &core.CleanupError{Cause: cause, Err: cerr}
		}
		return nil, cause
	}
	return s, nil
}

// handles are what start makes, closed in reverse on a failure.
type handles struct {
	inR, inW, outR, outW windows.Handle
	pc                   windows.Handle
	job                  windows.Handle
}

func (h *handles) closeAll() {
	if h.pc != 0 {
		windows.ClosePseudoConsole(h.pc)
	}
	for _, x := range []windows.Handle{h.inR, h.inW, h.outR, h.outW, h.job} {
		if x != 0 {
			_ = windows.CloseHandle(x)
		}
	}
}

// start makes the pipes, the pseudo console and the job, and starts the
// program suspended, assigns it to the job and resumes it.
func start(b *Backend, prog string, argv []string, dir string, env []string, size core.Size) (_ *session, err error) {
	var h handles
	defer func() {
		if err != nil {
			h.closeAll()
		}
	}()
	if err := windows.CreatePipe(&h.inR, &h.inW, nil, 0); err != nil {
		return nil, fmt.Errorf("input pipe: %w", err)
	}
	if err := windows.CreatePipe(&h.outR, &h.outW, nil, 0); err != nil {
		return nil, fmt.Errorf("output pipe: %w", err)
	}
	if err := windows.CreatePseudoConsole(coord(size), h.inR, h.outW, 0, &h.pc); err != nil {
		return nil, fmt.Errorf("CreatePseudoConsole: %w", err)
	}
	// The pseudo console holds its own copies of its ends of the pipes.
	_ = windows.CloseHandle(h.inR)
	_ = windows.CloseHandle(h.outW)
	h.inR, h.outW = 0, 0
	if h.job, err = newJob(); err != nil {
		return nil, err
	}
	attrs, err := windows.NewProcThreadAttributeList(1)
	if err != nil {
		return nil, fmt.Errorf("attribute list: %w", err)
	}
	defer attrs.Delete()
	// The attribute's value is the HPCON itself, not a pointer to it.
	if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE,
		*(*unsafe.Pointer)(unsafe.Pointer(&h.pc)), unsafe.Sizeof(h.pc)); err != nil {
		return nil, fmt.Errorf("pseudo console attribute: %w", err)
	}
	var si windows.StartupInfoEx
	si.Cb = uint32(unsafe.Sizeof(si))
	si.ProcThreadAttributeList = attrs.List()
	// Null standard handles: the program must not get this process's own
	// (an MCP server's stdout is its protocol stream); Windows connects
	// null standard handles of a program on a pseudo console to it.
	si.Flags = windows.STARTF_USESTDHANDLES
	appName, err := windows.UTF16PtrFromString(prog)
	if err != nil {
		return nil, err
	}
	cmdLine, err := windows.UTF16PtrFromString(windows.ComposeCommandLine(argv))
	if err != nil {
		return nil, err
	}
	var dirp *uint16
	if dir != "" {
		if dirp, err = windows.UTF16PtrFromString(dir); err != nil {
			return nil, err
		}
	}
	block, err := envBlock(env)
	if err != nil {
		return nil, err
	}
	var pi windows.ProcessInformation
	flags := uint32(windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_UNICODE_ENVIRONMENT | windows.CREATE_SUSPENDED)
	if err := windows.CreateProcess(appName, cmdLine, nil, nil, false, flags, &block[0], dirp, &si.StartupInfo, &pi); err != nil {
		return nil, fmt.Errorf("CreateProcess %s: %w", prog, err)
	}
	defer windows.CloseHandle(pi.Thread)
	if err := windows.AssignProcessToJobObject(h.job, pi.Process); err != nil {
		_ = windows.TerminateProcess(pi.Process, 1)
		_ = windows.CloseHandle(pi.Process)
		return nil, fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	if _, err := windows.ResumeThread(pi.Thread); err != nil {
		_ = windows.TerminateJobObject(h.job, 1)
		_ = windows.CloseHandle(pi.Process)
		return nil, fmt.Errorf("ResumeThread: %w", err)
	}
	return newSession(b, h, pi.Process, int(pi.ProcessId)), nil
}

// newJob creates a Job Object whose processes end when its last handle
// closes (kill-on-close).
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("CreateJobObject: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	return job, nil
}

// envBlock returns env as a Unicode environment block: NAME=VALUE
// strings, each ended by a NUL, and a NUL after the last.
func envBlock(env []string) ([]uint16, error) {
	var block []uint16
	for _, kv := range env {
		u, err := windows.UTF16FromString(kv) // ends in NUL; fails on a NUL inside
		if err != nil {
			return nil, fmt.Errorf("environment entry: %w", err)
		}
		block = append(block, u...)
	}
	if len(block) == 0 {
		block = append(block, 0) // an empty block is two NULs
	}
	return append(block, 0), nil
}

func coord(size core.Size) windows.Coord {
	return windows.Coord{X: int16(min(size.Cols, 32767)), Y: int16(min(size.Rows, 32767))}
}
