package ptysession

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// DefaultMaxQueuedSends is the default of Options.MaxQueuedSends.
const DefaultMaxQueuedSends = 4

// acquireSend takes the session's send slot for a facade send. Without
// queue it fails at once with SEND_ACTIVE when another facade send holds
// the slot, unless that send settled or was cancelled, or does so within
// sendRaceGrace (then it waits for the slot, as the seam does); with queue it waits its turn (first come, first served) until
// ctx ends (CANCELLED, nothing written), unless Options.MaxQueuedSends
// sends already wait (SEND_ACTIVE). The returned func releases the slot.
func (s *Sessions) acquireSend(ctx context.Context, owner *core.Owner, id core.SessionID, queue bool) (func(), error) {
	cs := s.sendState(owner, id)
	done := ctx.Done()
	release := func() {
		cs.finishing.Store(false)
		cs.holderDone.Store(nil)
		<-cs.slot
	}
	hold := func() (func(), error) {
		cs.holderDone.Store(&done)
		return release, nil
	}
	select {
	case cs.slot <- struct{}{}:
		return hold()
	default:
	}
	if !queue {
		if !holderEnding(ctx, cs, sendRaceGrace) {
			return nil, &core.Error{Code: core.CodeSendActive, Op: "send", Session: id,
				Msg: "another send is still running on this session (set Queue to wait for it)"}
		}
		// The send in flight has settled and only reads its delta, or was
		// cancelled and only interrupts: as at the seam, where it no
		// longer counts, this send goes next.
		select {
		case cs.slot <- struct{}{}:
			return hold()
		case <-ctx.Done():
			return nil, cancelled("send", id, ctx.Err())
		}
	}
	s.mu.Lock()
	if cs.queued >= s.opts.MaxQueuedSends {
		s.mu.Unlock()
		return nil, &core.Error{Code: core.CodeSendActive, Op: "send", Session: id,
			Msg: fmt.Sprintf("%d sends already wait on this session, the limit: wait for them or cancel one", s.opts.MaxQueuedSends)}
	}
	cs.queued++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		cs.queued--
		s.mu.Unlock()
	}()
	select {
	case cs.slot <- struct{}{}:
		return hold()
	case <-ctx.Done():
		return nil, cancelled("send", id, ctx.Err())
	}
}

// sendRaceGrace is how long a send without queue waits for the send in
// flight to turn out settled or cancelled before it is refused: a client
// that cancels a call and sends at once has its cancellation and its next
// call on the way together, and the server may take the call first.
const sendRaceGrace = 200 * time.Millisecond

// holderEnding reports whether the send holding cs's slot has settled
// (finishing), was cancelled, or let the slot go, watching for up to
// grace.
func holderEnding(ctx context.Context, cs *sendState, grace time.Duration) bool {
	ending := func() bool { return cs.finishing.Load() || holderCancelled(cs) || len(cs.slot) == 0 }
	if ending() {
		return true
	}
	var cancelled <-chan struct{} // the holder's context: its cancel is the event
	if d := cs.holderDone.Load(); d != nil {
		cancelled = *d
	}
	limit := time.NewTimer(grace)
	defer limit.Stop()
	// Settling and releasing the slot announce nothing: look now and then.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-cancelled:
			return true
		case <-tick.C:
			if ending() {
				return true
			}
		case <-limit.C:
			return ending()
		case <-ctx.Done():
			return true // the select that follows answers CANCELLED
		}
	}
}

// holderCancelled reports whether the context of the send holding cs's
// slot has ended (the send is cancelled and interrupting).
func holderCancelled(cs *sendState) bool {
	done := cs.holderDone.Load()
	if done == nil || *done == nil {
		return false
	}
	select {
	case <-*done:
		return true
	default:
		return false
	}
}

// omitEcho removes the lines that echo data (the typed command line, and
// each further line of a multi-line send, whose output may come between
// them) from out: for each line of data in turn, the next completed line
// of out that ends with it (after a prompt such as "$ " or "> "). A line
// that readline redrew with only its end visible counts when it is the
// end of the data line (at least 16 bytes). Lines of data without an echo
// (the terminal's echo was off) leave out as it is.
func omitEcho(out, data string) string {
	want := strings.Split(strings.TrimRight(strings.ReplaceAll(data, "\r", "\n"), "\n"), "\n")
	if len(want) == 0 || strings.TrimSpace(want[0]) == "" {
		return out
	}
	lines := strings.SplitAfter(out, "\n")
	echoes := func(line, typed string) bool {
		line = strings.TrimRight(line, " \r\n")
		typed = strings.TrimRight(typed, " ")
		return strings.HasSuffix(line, typed) || (len(line) >= 16 && strings.HasSuffix(typed, strings.TrimLeft(line, " ")))
	}
	drop := make([]bool, len(lines))
	next := 0
	for _, typed := range want {
		if strings.TrimSpace(typed) == "" {
			continue // an empty line echoes as a bare prompt: too vague to match
		}
		found := false
		for i := next; i < len(lines); i++ {
			if strings.HasSuffix(lines[i], "\n") && echoes(lines[i], typed) {
				drop[i], next, found = true, i+1, true
				break
			}
		}
		if !found {
			break
		}
	}
	var b strings.Builder
	for i, line := range lines {
		if !drop[i] {
			b.WriteString(line)
		}
	}
	return b.String()
}

// omitPrompt removes the unterminated last line of out (the shell's
// prompt, for a send that settled on it).
func omitPrompt(out string) string {
	return out[:strings.LastIndexByte(out, '\n')+1]
}
