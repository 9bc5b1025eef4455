package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path"
	"sync"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/client"
)

// Stream is a program's standard input and output in a container as one
// io.ReadWriteCloser, from an engine attach or exec without a TTY: Read
// returns its stdout (the engine's 8-byte-header frames taken apart),
// Write feeds its stdin, and its stderr is kept apart (the last 4 KiB, see
// Stderr). It is the byte stream a remote agent speaks over.
type Stream struct {
	conn   net.Conn
	execID string // the exec's id, for a stream from ExecStream
	pr     *io.PipeReader
	done   chan struct{}

	mu     sync.Mutex
	stderr []byte
}

// maxStderr bounds the stderr a Stream keeps.
const maxStderr = 4 << 10

// newStream takes over a hijacked attach or exec stream without a TTY.
func newStream(hj client.HijackedResponse) *Stream {
	pr, pw := io.Pipe()
	s := &Stream{conn: hj.Conn, pr: pr, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		_, err := stdcopy.StdCopy(pw, stderrWriter{s}, hj.Reader)
		if err == nil {
			err = io.EOF
		}
		_ = pw.CloseWithError(err)
	}()
	return s
}

// ExecStream starts argv in the running container id, without a TTY, as
// user ("" keeps the container's), and returns its stdin and stdout as a
// Stream. The program ends when its stdin closes if it exits on EOF;
// closing the Stream closes the connection.
func (b *Backend) ExecStream(ctx context.Context, id, user string, env, argv []string) (*Stream, error) {
	ex, err := b.cli.ExecCreate(ctx, id, client.ExecCreateOptions{User: user, Env: env, Cmd: argv,
		AttachStdin: true, AttachStdout: true, AttachStderr: true})
	if err != nil {
		return nil, fmt.Errorf("docker: creating an exec in %s: %w", short(id), err)
	}
	hj, err := b.cli.ExecAttach(ctx, ex.ID, client.ExecAttachOptions{})
	if err != nil {
		return nil, fmt.Errorf("docker: starting the exec in %s: %w", short(id), err)
	}
	st := newStream(hj.HijackedResponse)
	st.execID = ex.ID
	return st, nil
}

// Read returns the program's stdout.
func (s *Stream) Read(p []byte) (int, error) { return s.pr.Read(p) }

// Write feeds the program's stdin.
func (s *Stream) Write(p []byte) (int, error) { return s.conn.Write(p) }

// Close closes the connection and waits for the reader to stop.
func (s *Stream) Close() error {
	err := s.conn.Close()
	_ = s.pr.Close()
	<-s.done
	return err
}

// Stderr returns the last 4 KiB the program wrote to its stderr.
func (s *Stream) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.stderr)
}

type stderrWriter struct{ s *Stream }

func (w stderrWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.stderr = append(w.s.stderr, p...)
	if len(w.s.stderr) > maxStderr {
		w.s.stderr = w.s.stderr[len(w.s.stderr)-maxStderr:]
	}
	return len(p), nil
}

// CopyFile copies the host file src into the container id (created or
// running) as dst, an absolute path, with mode; missing directories of
// dst are created.
func (b *Backend) CopyFile(ctx context.Context, id, src, dst string, mode int64) error {
	if !path.IsAbs(dst) {
		return fmt.Errorf("docker: copy destination %q is not absolute", dst)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := path.Dir(dst)
	var dirs []string
	for d := dir; d != "/"; d = path.Dir(d) {
		dirs = append([]string{d}, dirs...)
	}
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d[1:] + "/", Mode: 0o755}); err != nil {
			return err
		}
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: dst[1:], Mode: mode, Size: int64(len(data))}); err != nil {
		return err
	}
	if _, err := tw.Write(data); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if _, err := b.cli.CopyToContainer(ctx, id, client.CopyToContainerOptions{DestinationPath: "/", Content: &buf}); err != nil {
		return fmt.Errorf("docker: copying %s into %s: %w", src, short(id), err)
	}
	return nil
}
