package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	dockerpkg "github.com/ptyseam/ptyseam/consumers/docker"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// dockerTargetsFile is the deployer's list of container targets pty_open
// may open a shell in (--docker-targets). The model names a target; the
// image, mounts and limits stay here, and the images and containers named
// here are the only ones the backend accepts. Example:
//
//	{"host": "unix:///var/run/docker.sock",
//	 "targets": {"py": {
//	    "description": "a Python 3.12 sandbox, no network",
//	    "image": "python:3.12-slim", "shell": "bash",
//	    "mounts": [{"source": "/srv/work", "target": "/work", "readOnly": false}],
//	    "workdir": "/work", "user": "1000:1000",
//	    "memoryMB": 512, "cpus": 1, "pids": 256},
//	  "build": {"container": "build-env-1"}}}
type dockerTargetsFile struct {
	// Host is the engine's address (default $DOCKER_HOST, else the
	// local socket).
	Host string `json:"host"`
	// AgentBinary is the path of a static ptyseam binary for the engine's
	// platform (CGO_ENABLED=0), or "self" for this executable (which
	// must then be static). When set, every session runs on a ptyseam
	// agent copied into its container: sends settle on the prompt and on
	// stdin_read, signals reach the foreground job and close ends the
	// whole process tree, as for local sessions.
	AgentBinary string `json:"agentBinary"`
	// AgentMount bind-mounts the agent read-only instead of copying it
	// into each container (the engine must run on this host).
	AgentMount bool                    `json:"agentMount"`
	Targets    map[string]dockerTarget `json:"targets"`
}

// dockerTarget is one configured container target.
type dockerTarget struct {
	Description string `json:"description"`
	// Image starts each session in a new container (removed at close);
	// Container runs it as an exec in an existing one. One of them.
	Image     string `json:"image"`
	Container string `json:"container"`
	// Shell is "bash" (the default: /bin/bash with the prompt marker, so
	// sends settle on its prompt) or the absolute path of another shell
	// (settles on silence).
	Shell   string            `json:"shell"`
	Workdir string            `json:"workdir"`
	Env     map[string]string `json:"env"`
	User    string            `json:"user"`
	Mounts  []struct {
		Source   string `json:"source"`
		Target   string `json:"target"`
		ReadOnly bool   `json:"readOnly"`
	} `json:"mounts"`
	MemoryMB int64   `json:"memoryMB"`
	CPUs     float64 `json:"cpus"`
	Pids     int64   `json:"pids"`
	// Network is the network mode ("none" when empty).
	Network      string `json:"network"`
	ReadOnlyRoot bool   `json:"readOnlyRoot"`
}

// parseDockerTargets decodes and checks a targets file. It reads no other
// file and contacts no engine.
func parseDockerTargets(data []byte) (dockerTargetsFile, error) {
	var f dockerTargetsFile
	if err := decodeTargetsFile(data, &f); err != nil {
		return f, err
	}
	if err := checkTargetsFile(len(f.Targets), f.AgentBinary); err != nil {
		return f, err
	}
	switch {
	case strings.ContainsAny(f.Host, " \t\r\n\x00"):
		return f, errors.New("host has spaces")
	case f.AgentMount && f.AgentBinary == "":
		return f, errors.New("agentMount needs agentBinary")
	}
	for name, t := range f.Targets {
		if err := checkTarget(name, t.Shell, t.Description, t.Env); err != nil {
			return f, err
		}
		switch {
		case (t.Image == "") == (t.Container == ""):
			return f, fmt.Errorf("%s: set exactly one of image and container", name)
		case strings.ContainsAny(t.Image+t.Container+t.User, " \t\r\n\x00"):
			return f, fmt.Errorf("%s: image, container and user must not have spaces", name)
		case t.MemoryMB < 0 || t.CPUs < 0 || t.Pids < 0:
			return f, fmt.Errorf("%s: negative limit", name)
		case t.MemoryMB > 1<<30 || t.CPUs > 4096 || t.Pids > 1<<22:
			return f, fmt.Errorf("%s: limit out of range (memoryMB at most 2^30, cpus 4096, pids 2^22)", name)
		}
		if err := t.target().Validate(); err != nil {
			return f, fmt.Errorf("%s: %w", name, err)
		}
	}
	return f, nil
}

// target builds the backend's target.
func (t dockerTarget) target() *dockerpkg.Target {
	dt := &dockerpkg.Target{Image: t.Image, Container: t.Container, WorkingDir: t.Workdir, User: t.User,
		Memory: t.MemoryMB << 20, NanoCPUs: int64(t.CPUs * 1e9), PidsLimit: t.Pids,
		NetworkMode: t.Network, ReadOnlyRootfs: t.ReadOnlyRoot, Shell: []string{"/bin/bash"}, Env: envList(t.Env)}
	if t.Shell != "" && t.Shell != "bash" {
		dt.Shell = []string{t.Shell}
	}
	for _, m := range t.Mounts {
		dt.Mounts = append(dt.Mounts, dockerpkg.Mount{Source: m.Source, Target: m.Target, ReadOnly: m.ReadOnly})
	}
	return dt
}

// dockerTargets reads the targets file (if configured), registers the
// docker backend on svc with the file's images and containers as its
// allowlist, and returns the facade's targets and the backend's closer.
func dockerTargets(cfg config, svc *core.Service, log *slog.Logger) (map[string]ptysession.Target, func() error, error) {
	if cfg.DockerTargets == "" {
		return nil, nil, nil
	}
	f, err := readTargetsFile("--docker-targets", cfg.DockerTargets, parseDockerTargets)
	if err != nil {
		return nil, nil, err
	}
	opts := dockerpkg.BackendOptions{Host: f.Host, Logger: log, AgentMount: f.AgentMount}
	if opts.AgentBinary, err = agentBinaryPath("--docker-targets", f.AgentBinary); err != nil {
		return nil, nil, err
	}
	if opts.AgentBinary != "" {
		if _, err := os.Stat(opts.AgentBinary); err != nil {
			return nil, nil, fmt.Errorf("--docker-targets: agentBinary: %w", err)
		}
	}
	targets := make(map[string]ptysession.Target, len(f.Targets))
	for name, t := range f.Targets {
		if t.Image != "" {
			opts.AllowedImages = append(opts.AllowedImages, t.Image)
		} else {
			opts.AllowedContainers = append(opts.AllowedContainers, t.Container)
		}
		// The agent's shell marks its prompts itself; a relayed bash gets
		// the marker typed in by the facade.
		targets[name] = ptysession.Target{Backend: dockerpkg.Type, Options: t.target(), Description: t.Description,
			PromptMarker: opts.AgentBinary == "" && (t.Shell == "" || t.Shell == "bash")}
	}
	b, err := dockerpkg.NewBackend(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("--docker-targets: %w", err)
	}
	if _, err := svc.Register(b); err != nil {
		return nil, nil, err
	}
	return targets, b.Close, nil
}
