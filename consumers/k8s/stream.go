package k8s

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
)

// execStream is an exec in a pod without a TTY, as a byte stream: its
// stdin is Write, its stdout is Read, its stderr is kept (the last
// stderrKeep bytes) to explain a failed start. It runs until the program
// ends, the connection breaks, or Close.
type execStream struct {
	inR  *io.PipeReader
	inW  *io.PipeWriter
	outR *io.PipeReader
	outW *io.PipeWriter

	cancel context.CancelFunc
	done   chan struct{} // the exec has ended
	err    error         // why, once done

	stopStart func() bool // ends the start's hold on the stream

	mu     sync.Mutex
	stderr []byte
}

// stderrKeep bounds the stderr an execStream keeps.
const stderrKeep = 4096

// execCloseWait bounds how long Close waits for the exec to end after
// its stdin ended, before it cuts the connection.
const execCloseWait = 10 * time.Second

// startExec starts argv in a pod's container over the API server's exec
// stream: WebSocket, with a fallback to SPDY for an API server that does
// not upgrade to it. The exec runs until it ends or Close; ctx bounds
// only the start (the connection's upgrade), since the stream serves the
// session afterwards.
func (b *Backend) startExec(ctx context.Context, ns, pod, container string, argv []string) (*execStream, error) {
	req := b.cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: container, Command: argv, Stdin: true, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	ws, err := remotecommand.NewWebSocketExecutor(b.cfg, "GET", req.URL().String())
	if err != nil {
		return nil, err
	}
	spdy, err := remotecommand.NewSPDYExecutor(b.cfg, "POST", req.URL())
	if err != nil {
		return nil, err
	}
	ex, err := remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(context.Background())
	s := &execStream{cancel: cancel, done: make(chan struct{})}
	s.inR, s.inW = io.Pipe()
	s.outR, s.outW = io.Pipe()
	stop := context.AfterFunc(ctx, cancel)
	go func() {
		defer close(s.done)
		err := ex.StreamWithContext(sctx, remotecommand.StreamOptions{Stdin: s.inR, Stdout: s.outW, Stderr: stderrWriter{s}})
		if err == nil {
			err = io.EOF
		}
		s.err = err
		_ = s.outW.CloseWithError(err)
		_ = s.inR.CloseWithError(err)
	}()
	s.stopStart = stop
	return s, nil
}

// started says the start is over: ctx of startExec no longer cuts the
// stream.
func (s *execStream) started() { _ = s.stopStart() }

// Read reads the program's stdout.
func (s *execStream) Read(p []byte) (int, error) { return s.outR.Read(p) }

// Write writes to the program's stdin.
func (s *execStream) Write(p []byte) (int, error) { return s.inW.Write(p) }

// Close ends the program's stdin (the agent then ends what it started
// and exits), waits a bound for the exec to end, then cuts it.
func (s *execStream) Close() error {
	_ = s.inW.Close()
	t := time.NewTimer(execCloseWait)
	defer t.Stop()
	select {
	case <-s.done:
	case <-t.C:
	}
	s.cancel()
	<-s.done
	_ = s.outR.Close()
	return nil
}

// abort cuts the stream at once.
func (s *execStream) abort() {
	s.cancel()
	<-s.done
	_ = s.outR.Close()
	_ = s.inW.Close()
}

// Done is closed when the exec has ended.
func (s *execStream) Done() <-chan struct{} { return s.done }

// Err says why the exec ended (io.EOF: the program ended), once Done.
func (s *execStream) Err() error { return s.err }

// Stderr returns the last stderr bytes the program wrote.
func (s *execStream) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.TrimSpace(string(s.stderr))
}

type stderrWriter struct{ s *execStream }

func (w stderrWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.stderr = append(w.s.stderr, p...)
	if n := len(w.s.stderr); n > stderrKeep {
		w.s.stderr = append([]byte(nil), w.s.stderr[n-stderrKeep:]...)
	}
	return len(p), nil
}

// closeIdle closes the idle connections of cfg's cached transport.
func closeIdle(cfg *rest.Config) {
	if rt, err := rest.TransportFor(cfg); err == nil {
		utilnet.CloseIdleConnectionsFor(rt)
	}
}

var _ io.ReadWriteCloser = (*execStream)(nil)
