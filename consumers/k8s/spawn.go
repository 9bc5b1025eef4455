package k8s

import (
	"context"
	"errors"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// spawn runs the session on a ptyseam agent inside the pod: a new pod
// from the template (created and running first) or the existing one. The
// agent is started by an exec without a TTY (startScript: the binary is
// copied in over the same exec and checked by hash); its stdin and stdout
// then carry the remote protocol. The session is the agent's local PTY
// session: it settles on the prompt marker and on stdin_read, signals the
// foreground group, and its Close ends the whole process tree in the pod.
func (b *Backend) spawn(ctx context.Context, sp spawnParams) (core.BackendSession, error) {
	t := sp.t
	s := &session{b: b, ns: t.namespace()}
	fail := func(err error) (core.BackendSession, error) {
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: err.Error(), Err: ctx.Err()}
		}
		if cerr := s.teardown(context.WithoutCancel(ctx)); cerr != nil {
			return nil, &core.CleanupError{Cause: err, Err: cerr}
		}
		return nil, err
	}
	container := t.Container
	if t.Image != "" {
		name, err := b.createPod(ctx, t, sp.Marker)
		s.pod, s.created = name, name != ""
		if err != nil {
			return fail(err)
		}
		container = containerName
	} else {
		s.pod = t.Pod
		p, err := b.cs.CoreV1().Pods(s.ns).Get(ctx, t.Pod, metav1.GetOptions{})
		if err != nil {
			kind := ErrAPI
			if apierrors.IsNotFound(err) || apierrors.IsForbidden(err) {
				kind = ErrExecRefused
			}
			return fail(spawnErr(kind, "finding pod "+s.ns+"/"+t.Pod, err))
		}
		if p.Status.Phase != corev1.PodRunning {
			return fail(spawnErr(ErrExecRefused, "pod "+s.ns+"/"+t.Pod, fmt.Errorf("the pod is %s, not Running", p.Status.Phase)))
		}
		if container == "" && len(p.Spec.Containers) > 0 {
			container = p.Spec.Containers[0].Name
		}
	}
	st, err := b.startExec(ctx, s.ns, s.pod, container, []string{"/bin/sh", "-c", b.agent.startScript()})
	if err != nil {
		return fail(spawnErr(ErrExecRefused, "starting the agent in pod "+s.ns+"/"+s.pod, err))
	}
	s.stream = st
	if err := b.agent.install(ctx, st); err != nil {
		if errors.Is(err, ErrExecRefused) {
			err = spawnErr(ErrExecRefused, "starting the agent in pod "+s.ns+"/"+s.pod, err)
		} else {
			err = &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "starting the agent in pod " + s.ns + "/" + s.pod, Err: err}
		}
		return fail(err)
	}
	conn, err := remote.Connect(ctx, st)
	if err != nil {
		if msg := st.Stderr(); msg != "" {
			err = fmt.Errorf("%w (agent stderr: %s)", err, msg)
		}
		return fail(&core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "connecting to the agent in pod " + s.ns + "/" + s.pod, Err: err})
	}
	req := sp.BackendRequest
	typ := remote.AgentExec
	if sp.shell {
		// The agent's shell type: Target.Shell, or its own default (an
		// interactive bash), with the prompt marker.
		typ = remote.AgentShell
	}
	rs, err := conn.Spawn(ctx, typ, req)
	if err != nil {
		_ = conn.Close()
		return fail(err)
	}
	// The session outlives the spawn's context from here on.
	st.started()
	s.Session = remote.NewSession(conn, rs, remote.SessionHooks{Teardown: s.teardown, Lost: s.lost})
	return s, nil
}
