package remote

import (
	"slices"

	"github.com/ptyseam/ptyseam/core"
)

// TargetDefaults are what a container target (a docker container, a
// Kubernetes pod) sets for every session started in it: a backend that
// runs sessions in such places applies them to each spawn request.
type TargetDefaults struct {
	// Shell is the command of a request without one.
	Shell []string
	// Term is the TERM variable, first in the session's environment.
	Term string
	// Env is the target's environment, after TERM and before the
	// request's own variables (a later one wins).
	Env []string
	// Dir is the working directory of a request without one.
	Dir string
}

// Apply returns req with the defaults filled in: its Command, or Shell
// when it has none; TERM, then Env, then its own Env; its Dir, or Dir
// when it has none; and its Size, or core.DefaultSize when a dimension
// is zero.
func (d TargetDefaults) Apply(req core.BackendRequest) core.BackendRequest {
	if len(req.Command) == 0 {
		req.Command = d.Shell
	}
	req.Env = append(append([]string{"TERM=" + d.Term}, d.Env...), req.Env...)
	if req.Dir == "" {
		req.Dir = d.Dir
	}
	if req.Size.Rows == 0 || req.Size.Cols == 0 {
		req.Size = core.DefaultSize
	}
	return req
}

// CheckAllowed refuses a spawn in a place that is not on the deployer's
// allowlist: what names the kind of place ("image", "container", "pod")
// and name the place. An empty name or an empty allowlist allows it;
// otherwise a name not in allowed gives an INVALID_ARGUMENT error that
// matches kind (the backend's sentinel error) and says so.
func CheckAllowed(kind error, what, name string, allowed []string) error {
	if name == "" || len(allowed) == 0 || slices.Contains(allowed, name) {
		return nil
	}
	return &core.Error{Code: core.CodeInvalidArgument, Op: "spawn", Err: kind,
		Msg: what + " " + name + " is not among the deployer's allowed " + what + "s"}
}
