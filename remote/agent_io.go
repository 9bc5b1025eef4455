package remote

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/yamux"

	"github.com/ptyseam/ptyseam/core"
)

func getpid() int { return os.Getpid() }

// maxWriteLen bounds the input bytes of one write call. The bytes stream
// through (the agent holds one chunk at a time), so the bound is only a
// sanity check on the length field.
const maxWriteLen = 1 << 30

// spawn starts a session and then streams its output on st until the end
// of output. The host closing its side of st cancels a spawn under way
// and, once the session runs, closes it: a host that gave up on a spawn
// leaves nothing behind.
func (a *agent) spawn(st *yamux.Stream, req request) {
	ctx, cancel := context.WithCancel(a.life)
	defer cancel()
	hostGone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, st)
		cancel()
		close(hostGone)
	}()
	be := a.backends[req.Type]
	if be == nil {
		_ = writeFrame(st, response{Error: &wireError{Code: string(core.CodeNoBackend), Op: req.Op,
			Msg: fmt.Sprintf("the agent has no backend of type %q", req.Type)}})
		return
	}
	a.mu.Lock()
	full := len(a.sessions) >= a.opts.MaxSessions
	ended := a.ended
	a.mu.Unlock()
	switch {
	case ended:
		return
	case full:
		_ = writeFrame(st, response{Error: &wireError{Code: string(core.CodeTooManySessions), Op: req.Op,
			Msg: fmt.Sprintf("the agent runs %d sessions on this stream, its bound; close one first", a.opts.MaxSessions)}})
		return
	}
	bs, err := be.Spawn(ctx, core.BackendRequest{Command: req.Command, Dir: req.Dir, Env: req.Env, Size: req.Size.size(), Marker: req.Marker})
	if err != nil {
		_ = writeFrame(st, response{Error: toWireError(req.Op, err)})
		return
	}
	probe := core.ProberOf(bs)
	s := &agentSession{be: bs, probe: probe, facts: probe.Facts(), pumped: make(chan struct{})}
	a.mu.Lock()
	if a.ended {
		a.mu.Unlock()
		close(s.pumped)
		a.closeOrphan(bs)
		return
	}
	a.nextID++
	s.id = a.nextID
	a.sessions[s.id] = s
	a.mu.Unlock()

	resp := response{Session: s.id, PID: bs.PID(), PromptMarker: s.facts.PromptMarker}
	if err := writeFrame(st, resp); err != nil {
		close(s.pumped)
		_ = a.closeSession(context.Background(), s)
		return
	}
	// The output, until the end of output. When the host stops taking it,
	// the rest is read and dropped so that the program never blocks on a
	// full terminal while the session is being closed.
	go func() {
		select {
		case <-hostGone:
			// The host abandoned the session (or the stream ended).
			cctx, ccancel := context.WithTimeout(context.Background(), a.opts.CloseTimeout)
			defer ccancel()
			if err := a.closeSession(cctx, s); err != nil {
				a.log.Error("remote agent: closing an abandoned session failed", "session", s.id, "err", err)
			}
		case <-s.pumped:
		}
	}()
	buf := make([]byte, maxOutputFrame)
	sink := io.Writer(st)
	tr, _ := bs.(core.TryIO)
	for {
		n, err := bs.Read(buf)
		if tr != nil {
			n = gather(tr, buf, n, err)
		}
		if n > 0 && sink != nil {
			if _, werr := sink.Write(buf[:n]); werr != nil {
				sink = nil
			}
		}
		if err != nil {
			break
		}
	}
	_ = st.Close()
	close(s.pumped)
}

// maxOutputFrame bounds the output bytes of one data frame.
const maxOutputFrame = 32 << 10

// gather appends to buf[:n], which a Read that returned err filled, what
// the terminal already holds, up to len(buf), and returns the new length.
// A Linux terminal gives at most 4 KiB a read: under a flood, gathering
// sends frames of up to maxOutputFrame, each one write here, one read and
// about one ssh packet in sshd and one wake-up on the host, instead of
// one of each per 4 KiB. It never waits: quiet output leaves at once, at
// the cost of one read that finds the terminal empty.
func gather(tr core.TryIO, buf []byte, n int, err error) int {
	for err == nil && n > 0 && n < len(buf) {
		m, terr := tr.TryRead(buf[n:])
		if m <= 0 || terr != nil {
			break
		}
		n += m
	}
	return n
}

// closeOrphan closes a session started while the stream ended.
func (a *agent) closeOrphan(bs core.BackendSession) {
	ctx, cancel := context.WithTimeout(context.Background(), a.opts.CloseTimeout)
	defer cancel()
	if err := bs.Close(ctx); err != nil {
		a.log.Error("remote agent: closing a session started as the stream ended failed", "err", err)
	}
}

// write streams req.Len input bytes from st to the session's terminal,
// a chunk at a time, and answers how many went through. The host closing
// its side before the answer cancels the write.
func (a *agent) write(st *yamux.Stream, req request) {
	s, werr := a.session(req.Op, req.Session)
	if werr == nil && (req.Len < 0 || req.Len > maxWriteLen) {
		werr = &wireError{Code: string(core.CodeInvalidArgument), Op: req.Op, Msg: fmt.Sprintf("a write of %d bytes (at most %d)", req.Len, maxWriteLen)}
	}
	if werr != nil {
		_ = writeFrame(st, response{Error: werr})
		return
	}
	ctx, cancel := context.WithCancel(a.life)
	defer cancel()
	chunks := make(chan []byte)
	stop := make(chan struct{})
	go func() {
		defer cancel() // the host closed its side: cancel a write under way
		left := req.Len
		buf := make([]byte, 32<<10)
		for left > 0 {
			n, err := st.Read(buf[:min(left, len(buf))])
			left -= n
			if n > 0 {
				c := make([]byte, n)
				copy(c, buf[:n])
				select {
				case chunks <- c:
				case <-stop:
					_, _ = io.Copy(io.Discard, st)
					return
				}
			}
			if err != nil {
				close(chunks)
				return
			}
		}
		close(chunks)
		_, _ = io.Copy(io.Discard, st)
	}()
	total := 0
	var err error
	for c := range chunks {
		var n int
		n, err = s.be.Write(ctx, c)
		total += n
		if err != nil {
			break
		}
	}
	close(stop)
	if err == nil && total < req.Len {
		err = core.Errorf(core.CodeCancelled, "the host cancelled the write after %d of %d bytes", total, req.Len)
	}
	_ = writeFrame(st, response{N: total, Error: toWireError(req.Op, err)})
}
