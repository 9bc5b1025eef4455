package core

import "context"

// relayChars are the control characters a relay gets when its backend
// cannot read them: the defaults of every terminal (^C, ^\, ^Z).
var relayChars = map[Signal]byte{SIGINT: 0x03, SIGQUIT: 0x1c, SIGTSTP: 0x1a}

// deliverSignal sends req to the session's foreground. A declared relay
// (SpawnRequest.Relay: a local ssh client) is its own foreground and would
// die of a signal meant for the program at the far end, so SIGINT, SIGQUIT
// and SIGTSTP travel as the terminal's control characters, which the relay
// forwards and the far end's line discipline turns into the signal (Method
// "tty-char"). Other signals would only hit the relay: they are refused
// with SIGNAL_REFUSED unless req.AllowLeader says the relay itself is
// meant.
func (sess *session) deliverSignal(ctx context.Context, req SignalRequest) (SignalResult, error) {
	if !sess.relay {
		return sess.be.Signal(ctx, req)
	}
	c, ok := relayChars[req.Signal]
	if !ok {
		if req.AllowLeader {
			return sess.be.Signal(ctx, req)
		}
		return SignalResult{Leader: true, Method: "tty-char"}, newError(CodeSignalRefused, "signal", sess.id,
			string(req.Signal)+" would hit the relay (the local client forwarding this terminal), not the program at the far end: "+
				"only SIGINT, SIGQUIT and SIGTSTP travel through a relay, as the terminal's control characters; close the session to end it")
	}
	if cc, err := sess.probe.ControlChar(req.Signal); err == nil {
		c = cc
	}
	if _, err := sess.be.Write(ctx, []byte{c}); err != nil {
		return SignalResult{}, err
	}
	return SignalResult{Delivered: true, Method: "tty-char"}, nil
}
