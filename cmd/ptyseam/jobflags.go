package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
)

// jobFlags are the deployer's settings of the background jobs (the bg_*
// tools). Their bounds are jobs.Config's: Validate owns them, and check
// only names the flag that set the field it refuses.
type jobFlags struct {
	BufferLines  int
	DefaultGroup string
	Backend      string
	StopGrace    time.Duration
	NoPortCheck  bool
}

// jobFlagNames maps a jobs.Config field to the flag that sets it.
var jobFlagNames = map[string]string{
	"BufferCapacity": "--jobs-buffer-lines",
	"DefaultGroup":   "--jobs-default-group",
	"Backend":        "--jobs-backend",
	"StopGrace":      "--jobs-stop-grace",
}

func (j *jobFlags) flags(fs *flag.FlagSet) {
	fs.IntVar(&j.BufferLines, "jobs-buffer-lines", jobs.DefaultBufferCapacity,
		fmt.Sprintf("output lines kept per background job (bg_*), %d to %d", jobs.MinBufferCapacity, jobs.MaxBufferCapacity))
	fs.StringVar(&j.DefaultGroup, "jobs-default-group", jobs.DefaultGroupName,
		fmt.Sprintf("the `GROUP` of a job launched without one (at most %d bytes, no control characters)", jobs.MaxNameLen))
	fs.StringVar(&j.Backend, "jobs-backend", string(jobs.BackendAuto),
		"how jobs run: pty (a pseudo-terminal), pipe (plain pipes, stdout and stderr merged) or auto (pty when available)")
	fs.DurationVar(&j.StopGrace, "jobs-stop-grace", jobs.DefaultStopGrace,
		fmt.Sprintf("how long bg_stop waits after SIGTERM before it kills a job, %v to %v", jobs.MinStopGrace, jobs.MaxStopGrace))
	fs.BoolVar(&j.NoPortCheck, "jobs-no-port-check", false,
		"do not probe, before bg_launch, the ports a job will listen on (its ports argument;\na port in use only gives a warning, the job is launched anyway)")
}

// config returns the jobs configuration the flags describe, validated
// (defaults filled in), or an error naming the flag and its bounds. Under
// a sandbox (sandboxed) pipes are disabled: every job runs on the
// terminal backend, which confines it like a terminal.
// Validate reads a zero field as "the default"; a flag set to zero or ""
// is a value the deployer typed, so it is refused as out of range.
func (j jobFlags) config(sandboxed bool) (jobs.Config, error) {
	if j.DefaultGroup == "" {
		return jobs.Config{}, errors.New("--jobs-default-group must not be empty")
	}
	c := jobs.Config{
		BufferCapacity:  j.BufferLines,
		DefaultGroup:    j.DefaultGroup,
		Backend:         jobs.BackendChoice(j.Backend),
		StopGrace:       j.StopGrace,
		DisablePortScan: j.NoPortCheck,
		DisablePipe:     sandboxed,
	}
	given := map[string]any{"BufferCapacity": j.BufferLines, "DefaultGroup": j.DefaultGroup, "Backend": fmt.Sprintf("%q", j.Backend), "StopGrace": j.StopGrace}
	if c.BufferCapacity == 0 {
		c.BufferCapacity = -1
	}
	if c.StopGrace == 0 {
		c.StopGrace = -1
	}
	if c.Backend == "" {
		c.Backend = "-"
	}
	c, err := c.Validate()
	var ce *jobs.ConfigError
	if errors.As(err, &ce) {
		reason := ce.Reason
		if sandboxed && ce.Field == "Backend" && j.Backend == string(jobs.BackendPipe) {
			reason = `must be "pty" or "auto" with --sandbox (pipe jobs would run unconfined)`
		}
		return c, fmt.Errorf("%s %v: %s", jobFlagNames[ce.Field], given[ce.Field], reason)
	}
	return c, err
}
