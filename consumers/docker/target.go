package docker

import (
	"path"
	"strings"
)

// Target says where a session runs. Pass a *Target as the Options of a
// spawn request of type "docker". Set exactly one of Image and Container.
type Target struct {
	// Image starts each session in a new container from this image (it
	// must be present on the engine: the backend never pulls). Close
	// removes the container.
	Image string
	// Container runs each session as an exec in this existing, running
	// container (name or id). Close ends the session's processes, not the
	// container. The container needs /bin/sh and cat for Close to find
	// and prove the end of every process the session started (see
	// docs/docker.md).
	Container string

	// Shell is the program of a session with an empty Command
	// (["/bin/sh"] when empty).
	Shell []string
	// WorkingDir is the working directory; a request's Dir overrides it.
	WorkingDir string
	// Env holds NAME=VALUE variables; a request's Env adds to them.
	Env []string
	// User is the user (and group) to run as ("1000", "1000:1000",
	// "nobody"); empty keeps the image's or container's.
	User string
	// Term is the TERM value ("xterm-256color" when empty).
	Term string

	// The options below apply to new containers (Image) only.

	// Mounts are host directories or files bind-mounted into the
	// container.
	Mounts []Mount
	// Memory limits the container's memory in bytes (0: no limit).
	Memory int64
	// NanoCPUs limits the container's CPU in billionths of a CPU (0: no
	// limit; 500000000 is half a CPU).
	NanoCPUs int64
	// PidsLimit limits the number of processes in the container (0: no
	// limit).
	PidsLimit int64
	// NetworkMode is the container's network ("none" when empty: no
	// network at all). "bridge", "host" or a network name give one.
	NetworkMode string
	// ReadOnlyRootfs mounts the container's root file system read-only.
	ReadOnlyRootfs bool
	// Labels are added to the container's labels.
	Labels map[string]string
}

// Mount is a bind mount of a host path.
type Mount struct {
	// Source is the absolute host path.
	Source string
	// Target is the absolute path inside the container.
	Target string
	// ReadOnly mounts it read-only.
	ReadOnly bool
}

const (
	defaultTerm    = "xterm-256color"
	defaultNetwork = "none"
)

// LabelSession is the label every container the backend creates carries
// (its value is the session's marker), so that a deployer can find them:
// docker ps --filter label=io.ptyseam.session.
const LabelSession = "io.ptyseam.session"

// Validate checks the target as Spawn does, without contacting the engine.
func (t *Target) Validate() error {
	switch {
	case t == nil:
		return invalid("docker backend needs a *docker.Target in Options")
	case (t.Image == "") == (t.Container == ""):
		return invalid("docker target: set exactly one of Image (a new container) and Container (an existing one)")
	case t.Container != "" && (len(t.Mounts) > 0 || t.Memory != 0 || t.NanoCPUs != 0 || t.PidsLimit != 0 || t.NetworkMode != "" || t.ReadOnlyRootfs || len(t.Labels) > 0):
		return invalid("docker target: mounts, limits, network, read-only root and labels apply to new containers (Image), not to an existing Container")
	case t.Memory < 0 || t.NanoCPUs < 0 || t.PidsLimit < 0:
		return invalid("docker target: negative resource limit")
	}
	for _, m := range t.Mounts {
		if !path.IsAbs(m.Source) || !path.IsAbs(m.Target) {
			return invalid("docker target: mount %q -> %q: both paths must be absolute", m.Source, m.Target)
		}
	}
	for _, kv := range t.Env {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return invalid("docker target: env %q is not NAME=VALUE", kv)
		}
	}
	return nil
}

func (t *Target) shell() []string {
	if len(t.Shell) == 0 {
		return []string{"/bin/sh"}
	}
	return t.Shell
}

func (t *Target) term() string {
	if t.Term == "" {
		return defaultTerm
	}
	return t.Term
}

func (t *Target) network() string {
	if t.NetworkMode == "" {
		return defaultNetwork
	}
	return t.NetworkMode
}
