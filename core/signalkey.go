package core

import "context"

// ControlKey is a terminal's key for a signal ([Prober].ControlChar).
type ControlKey struct {
	// Char is the character the line discipline turns into the signal
	// (VINTR for SIGINT, ...); 0 when the terminal has it disabled.
	Char byte
	// Raw reports that the line discipline turns no character into the
	// signal now (ISIG off, or the signal's character disabled): the
	// program holding the terminal reads its keys raw (Node's REPL, an
	// editor, an ssh client, jshell's line editor), so a person's Ctrl-C
	// reaches it as the byte ^C, which it handles as it chooses, and a
	// kill(SIGINT) would bypass that handling (jshell's execution engine,
	// in its group, dies of it).
	Raw bool
}

// DefaultKey returns the key a terminal types for sig unless told
// otherwise (^C for SIGINT, ^\ for SIGQUIT, ^Z for SIGTSTP), and false
// for a signal no key sends. A backend that cannot read its terminal's
// own keys types these.
func DefaultKey(sig Signal) (byte, bool) {
	switch sig {
	case SIGINT:
		return 0x03, true
	case SIGQUIT:
		return 0x1c, true
	case SIGTSTP:
		return 0x1a, true
	}
	return 0, false
}

// deliverSignal sends req to the session's foreground. SIGINT, SIGQUIT
// and SIGTSTP travel as the terminal's key (Method "tty-char") where a
// person's key press would not be turned into the signal by this
// terminal:
//
//   - a declared relay (SpawnRequest.Relay: a local ssh client) is its own
//     foreground and would die of a signal meant for the program at the
//     far end; the key is forwarded, and the far end's line discipline
//     turns it into the signal. Other signals would only hit the relay:
//     they are refused with SIGNAL_REFUSED unless req.AllowLeader says the
//     relay itself is meant.
//   - a program that reads the terminal raw ([ControlKey].Raw) gets the
//     key as input and handles it itself: Node's REPL abandons the line,
//     an ssh client run in a shell forwards it to the far end. The result
//     names the group that holds the terminal and says Raw.
//
// Every other signal goes to the backend.
func (sess *session) deliverSignal(ctx context.Context, req SignalRequest) (SignalResult, error) {
	c, keyed := DefaultKey(req.Signal)
	if !keyed {
		if sess.relay && !req.AllowLeader {
			return SignalResult{Leader: true, Method: "tty-char"}, newError(CodeSignalRefused, "signal", sess.id,
				string(req.Signal)+" would hit the relay (the local client forwarding this terminal), not the program at the far end: "+
					"only SIGINT, SIGQUIT and SIGTSTP travel through a relay, as the terminal's control characters; close the session to end it")
		}
		return sess.be.Signal(ctx, req)
	}
	key, err := sess.probe.ControlChar(req.Signal)
	raw := err == nil && key.Raw
	if !sess.relay && !raw {
		return sess.be.Signal(ctx, req)
	}
	if err == nil && key.Char != 0 {
		c = key.Char
	}
	res := SignalResult{Delivered: true, Method: "tty-char"}
	if !sess.relay {
		res.Raw = true
		if g, leader, ok := sess.foregroundGroup(); ok {
			res.TargetPGID, res.Leader = g, leader
		}
	}
	if _, err := sess.be.Write(ctx, []byte{c}); err != nil {
		return SignalResult{}, err
	}
	return res, nil
}
