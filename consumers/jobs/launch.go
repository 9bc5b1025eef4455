package jobs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs/portprobe"
	"github.com/ptyseam/ptyseam/core"
)

// LaunchRequest describes a job to launch.
type LaunchRequest struct {
	// Command is the program (looked up in PATH); Args its arguments. To
	// run a shell command line use Command "sh" and Args {"-c", line}.
	Command string
	Args    []string
	// Cwd is the working directory ("" keeps the service process's).
	Cwd string
	// Env holds extra environment variables; names must match
	// [A-Za-z_][A-Za-z0-9_]*.
	Env map[string]string
	// Title is a display name (default: the command). Group tags the job
	// (default: Config.DefaultGroup).
	Title string
	Group string
	// Timeout stops the job (reason timeout) when it runs this long; 0
	// means never.
	Timeout time.Duration
	// Ports are TCP ports the job will listen on: each is checked before
	// launch, and one already in use gives a warning (the job is launched
	// anyway).
	Ports []int
	// NotifyOnExit sends an exit notice to Config.Notify when the job ends.
	NotifyOnExit bool
	// Backend overrides Config.Backend for this job ("" keeps it).
	Backend BackendChoice
}

// MaxPorts bounds LaunchRequest.Ports.
const MaxPorts = 32

func (m *Manager) validateLaunch(req *LaunchRequest) error {
	switch {
	case req.Command == "":
		return invalid("launch", "command is empty")
	case req.Timeout < 0:
		return invalid("launch", "timeout must not be negative")
	case len(req.Ports) > MaxPorts:
		return invalid("launch", fmt.Sprintf("at most %d ports", MaxPorts))
	}
	for _, p := range req.Ports {
		if p < 1 || p > 65535 {
			return invalid("launch", fmt.Sprintf("port %d is not in 1..65535", p))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(req.Env)) {
		if !core.ValidEnvName(name) {
			return invalid("launch", fmt.Sprintf("env name %q is not a variable name (want [A-Za-z_][A-Za-z0-9_]*; a value goes on the right side)", name))
		}
		if strings.IndexByte(req.Env[name], 0) >= 0 {
			return invalid("launch", fmt.Sprintf("the value of env %s contains a NUL byte", name))
		}
	}
	if req.Group == "" {
		req.Group = m.cfg.DefaultGroup
	}
	if err := checkName("group", req.Group); err != nil {
		return invalid("launch", err.Error())
	}
	if req.Title == "" {
		req.Title = defaultTitle(req.Command)
	}
	if err := checkName("title", req.Title); err != nil {
		return invalid("launch", err.Error())
	}
	switch req.Backend {
	case "", BackendAuto, BackendPTY, BackendPipe:
	default:
		return invalid("launch", `backend must be "pty", "pipe" or "auto"`)
	}
	return nil
}

// Launch starts a job for owner and returns it running, with any launch
// warnings. The job's output, exit and timeout are watched from then on.
func (m *Manager) Launch(ctx context.Context, owner *core.Owner, req LaunchRequest) (Info, error) {
	if owner == nil {
		return Info{}, invalid("launch", "owner is nil")
	}
	if err := m.validateLaunch(&req); err != nil {
		return Info{}, err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return Info{}, &core.Error{Code: core.CodeServiceDisposing, Op: "launch", Msg: "the job manager is shut down"}
	}
	if _, gone := m.disposed[owner]; gone {
		m.mu.Unlock()
		return Info{}, ownerDisposed()
	}
	if err := m.reserveLocked(owner); err != nil {
		m.mu.Unlock()
		return Info{}, err
	}
	sowner := m.jobOwnerLocked(owner)
	m.launches.Add(1)
	m.mu.Unlock()
	defer m.launches.Done()
	recorded := false
	defer func() {
		m.mu.Lock()
		m.unreserveLocked(owner)
		if !recorded {
			m.forgetOwnerLocked(owner)
		}
		m.mu.Unlock()
	}()

	var warnings []string
	if !m.cfg.DisablePortScan && len(req.Ports) > 0 {
		results, err := portprobe.ProbeAll(ctx, req.Ports)
		if err != nil {
			return Info{}, &core.Error{Code: core.CodeCancelled, Op: "launch", Msg: "port check interrupted", Err: err}
		}
		for _, r := range results {
			if r.InUse {
				warnings = append(warnings, fmt.Sprintf("port %d is already in use (%s)", r.Port, r.Detail))
			}
		}
	}
	backend, typ, err := m.resolveBackend(req.Backend)
	if err != nil {
		return Info{}, err
	}
	res, err := m.svc.Spawn(ctx, sowner, core.SpawnRequest{
		Type:    typ,
		Command: append([]string{req.Command}, req.Args...),
		Dir:     req.Cwd,
		Env:     envList(req.Env),
		Scrollback: core.ScrollbackLimits{
			MaxLines:     m.cfg.BufferCapacity,
			MaxBytes:     m.cfg.BufferBytes,
			MaxLineBytes: MaxLineBytes,
		},
		NoInitialWait: true,
		WithTap:       true, // data events see every byte, from the first
	})
	if core.CodeOf(err) == core.CodeTooManySessions { // the service's own per-owner limit, below the job limit
		running, ended := m.countJobs(owner)
		return Info{}, tooManyJobs(running+ended, running, ended)
	}
	if err != nil {
		return Info{}, err
	}
	j := &job{
		id:       core.SessionID(core.NewJobID()),
		owner:    owner,
		sid:      res.ID,
		sowner:   sowner,
		pid:      res.PID,
		title:    req.Title,
		group:    req.Group,
		command:  req.Command,
		args:     slices.Clone(req.Args),
		cwd:      req.Cwd,
		backend:  backend,
		started:  time.Now(),
		timeout:  req.Timeout,
		notify:   req.NotifyOnExit,
		ports:    slices.Clone(req.Ports),
		warnings: warnings,
		services: portprobe.NewSet(0),
		exited:   make(chan struct{}),
		tapDone:  make(chan struct{}),
		state:    StateRunning,
	}
	tap, tapErr := res.Tap, error(nil)

	m.mu.Lock()
	_, gone := m.disposed[owner]
	if m.closed || gone {
		m.mu.Unlock()
		if tap != nil {
			tap.Close()
		}
		_, _ = m.svc.Close(context.WithoutCancel(ctx), sowner, res.ID, "jobs: launched during shutdown or dispose")
		if gone {
			return Info{}, ownerDisposed()
		}
		return Info{}, &core.Error{Code: core.CodeServiceDisposing, Op: "launch", Msg: "the job manager is shut down"}
	}
	m.jobs[j.id] = j
	m.order = append(m.order, j)
	recorded = true
	m.watchers.Add(2)
	m.mu.Unlock()

	if req.Timeout > 0 {
		// Armed before the exit watcher starts, so that recordExit always
		// sees (and stops) it.
		j.mu.Lock()
		j.timer = time.AfterFunc(req.Timeout, func() { m.timeoutJob(j) })
		j.mu.Unlock()
	}
	// The created event goes out before the watchers start: they publish
	// the job's data and exit events, which come after it.
	info := m.info(j)
	m.hub.publish(Event{Kind: EventCreated, ID: info.ID, Group: info.Group, Title: info.Title, Info: info})
	go m.watchOutput(j, tap, tapErr)
	go m.watchExit(j)
	m.log.Info("jobs: launched", "job", j.id, "pid", j.pid, "group", j.group, "backend", backend, "warnings", len(warnings))
	return info, nil
}

// envList turns env into sorted NAME=VALUE entries.
func envList(env map[string]string) []string {
	if len(env) == 0 {
		return nil
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, k := range names {
		out = append(out, k+"="+env[k])
	}
	return out
}

// timeoutJob stops j with reason timeout; it runs on the timer's
// goroutine, which the manager waits for at shutdown.
func (m *Manager) timeoutJob(j *job) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.watchers.Add(1)
	m.mu.Unlock()
	defer m.watchers.Done()
	m.log.Info("jobs: timeout", "job", j.id, "timeout", j.timeout)
	_, _ = m.stopJob(m.ctx, j, ReasonTimeout, false)
}
