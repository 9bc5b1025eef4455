package k8s

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"k8s.io/apimachinery/pkg/types"
)

// session is a session on an agent in a pod: the remote session, whose
// Close also ends the agent's exec and deletes a created pod.
type session struct {
	core.BackendSession
	// Its core.Prober passes the settle question, the prompt marker and
	// the control characters through to the agent's session, and answers
	// the exit cause itself; the other questions answer ErrUnsupported.
	core.UnimplementedProber
	b         *Backend
	ns, pod   string
	container string
	uid       types.UID // an existing pod's, at the spawn
	created   bool
	conn      *remote.Conn
	stream    *execStream

	closer core.CloseGuard
	exit   core.ExitLatch // set, with its cause, once watchExit has classified the end
}

// Close closes the session on the agent (which ends its whole process
// tree and proves it), then the agent's exec, then deletes a created pod
// and waits until it is gone.
func (s *session) Close(ctx context.Context) error {
	return s.closer.Do(func() error { return s.closeAttempt(ctx) })
}

// closeAttempt is one attempt at Close; a failed one may be retried.
func (s *session) closeAttempt(ctx context.Context) error {
	err := s.BackendSession.Close(ctx)
	if err != nil && !errors.Is(err, remote.ErrConnectionLost) {
		return err
	}
	select {
	case <-s.exit.Exited():
	case <-ctx.Done():
		return &core.CleanupError{Err: ctx.Err()}
	}
	if err := s.teardown(ctx); err != nil {
		return &core.CleanupError{Err: err}
	}
	return nil
}

// teardown ends the agent's stream (its stdin ends: it closes what it
// started and exits) and deletes a created pod.
func (s *session) teardown(ctx context.Context) error {
	if s.conn != nil {
		_ = s.conn.Close()
	}
	if s.stream != nil {
		_ = s.stream.Close()
	}
	if !s.created {
		return nil
	}
	return s.b.deletePod(ctx, s.ns, s.pod)
}

// verdictWait bounds the API server's answer when the agent's stream was
// lost: whether the pod is gone.
const verdictWait = 2 * time.Second

// watchExit waits for the agent's session to end and, when its stream
// was lost (not closed by the session), asks the API server why before
// it reports the end: a pod deleted, being deleted, evicted or ended
// gives ErrPodGone and ReasonPodGone; a pod that runs on, or an API
// server that does not answer, gives ErrAPIServerLost and
// ReasonAPIServerLost. Both also match remote.ErrConnectionLost.
func (s *session) watchExit() {
	var st core.Status
	var cause error
	defer func() { s.exit.SetCause(st, cause) }()
	<-s.BackendSession.Exited()
	st = s.BackendSession.ExitStatus()
	cause = core.ProberOf(s.BackendSession).ExitCause()
	if cause == nil || !errors.Is(cause, remote.ErrConnectionLost) || s.closer.IsClosing() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), verdictWait)
	defer cancel()
	if gone, _ := s.b.podGone(ctx, s.ns, s.pod); gone {
		cause = fmt.Errorf("%w: %w", ErrPodGone, cause)
		st.Reason = ReasonPodGone
		s.b.log.Info("k8s session ended: the pod was deleted or evicted", "namespace", s.ns, "pod", s.pod)
		return
	}
	cause = fmt.Errorf("%w: %w", ErrAPIServerLost, cause)
	st.Reason = ReasonAPIServerLost
	s.b.log.Info("k8s session ended: the connection to the API server was lost", "namespace", s.ns, "pod", s.pod)
}

// Exited is closed when the agent's session has ended and the backend
// knows why (watchExit).
func (s *session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the agent's exit status, with Status.Reason
// ReasonPodGone or ReasonAPIServerLost when the stream to the agent was
// lost for that reason.
func (s *session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// ExitCause returns the remote session's cause (a lost stream matches
// remote.ErrConnectionLost), also matching ErrPodGone or
// ErrAPIServerLost when the stream was lost.
func (s *session) ExitCause() error { return s.exit.Cause() }

// Pod returns the namespace and name of the pod the session runs in.
func (s *session) Pod() (namespace, name string) { return s.ns, s.pod }

// Facts reports that the session answers the settle question and, from
// the agent's session, whether its shell prints the prompt marker.
func (s *session) Facts() core.Facts {
	return core.Facts{PromptMarker: core.ProberOf(s.BackendSession).Facts().PromptMarker, WatchesInput: true}
}

// Foreground forwards to the agent's session (core.Prober).
func (s *session) Foreground() (core.InputBaseline, error) {
	return core.ProberOf(s.BackendSession).Foreground()
}

// InputWait forwards to the agent's session (core.Prober).
func (s *session) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	return core.ProberOf(s.BackendSession).InputWait(base, taken)
}

// ControlChar forwards to the agent's session (core.Prober).
func (s *session) ControlChar(sig core.Signal) (byte, error) {
	return core.ProberOf(s.BackendSession).ControlChar(sig)
}

var _ core.Prober = (*session)(nil)
