package k8s

import (
	"context"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// session is a session on an agent in a pod: the remote session, whose
// Close also ends the agent's exec and deletes a created pod, and whose
// lost stream is explained by the API server.
type session struct {
	*remote.Session
	b       *Backend
	ns, pod string
	created bool
	stream  *execStream
}

// teardown ends the agent's stream (its stdin ends: it closes what it
// started and exits) and deletes a created pod.
func (s *session) teardown(ctx context.Context) error {
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

// lost explains a lost stream to the agent (remote.SessionHooks.Lost) by
// asking the API server: a pod deleted, being deleted, evicted or ended
// gives ErrPodGone and ReasonPodGone; a pod that runs on, or an API
// server that does not answer, gives ErrAPIServerLost and
// ReasonAPIServerLost. Both also match remote.ErrConnectionLost.
func (s *session) lost(_ <-chan struct{}, st core.Status, cause error) (core.Status, error) {
	ctx, cancel := context.WithTimeout(context.Background(), verdictWait)
	defer cancel()
	if gone, _ := s.b.podGone(ctx, s.ns, s.pod); gone {
		st.Reason = ReasonPodGone
		s.b.log.Info("k8s session ended: the pod was deleted or evicted", "namespace", s.ns, "pod", s.pod)
		return st, fmt.Errorf("%w: %w", ErrPodGone, cause)
	}
	st.Reason = ReasonAPIServerLost
	s.b.log.Info("k8s session ended: the connection to the API server was lost", "namespace", s.ns, "pod", s.pod)
	return st, fmt.Errorf("%w: %w", ErrAPIServerLost, cause)
}

// Pod returns the namespace and name of the pod the session runs in.
func (s *session) Pod() (namespace, name string) { return s.ns, s.pod }
