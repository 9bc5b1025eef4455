package core

import "time"

// CheckSend is the one validation of a send: something to send, at most
// maxBytes bytes of Data and enter bytes of Enter key, and deadlines
// CheckDeadlines accepts. [Service.Send] runs it; a layer that queues
// sends (the ptysession facade) runs it before queueing, with its own
// maxTimeout. Its errors are INVALID_ARGUMENT naming the field.
func CheckSend(op string, id SessionID, req SendRequest, maxBytes, enter int, maxTimeout time.Duration) error {
	n := len(req.Data)
	if !req.NoSubmit {
		n += enter
	}
	switch {
	case n == 0:
		return invalidField(op, id, "data", "is empty and submit is false: nothing to send")
	case n > maxBytes:
		return invalidField(op, id, "data", itoa(len(req.Data))+" bytes exceeds the limit of "+itoa(maxBytes))
	}
	if req.Tail != nil {
		if err := checkTail(op, id, *req.Tail); err != nil {
			return err
		}
	}
	return CheckDeadlines(op, id, req.Timeout, req.QuietWindow, maxTimeout)
}

// CheckDeadlines validates a caller's deadline and quiet window: neither
// negative, neither above max (0: no bound). A quiet window as long as the
// deadline is allowed: silence then never settles the call, only a prompt,
// a read of input, the exit or the deadline.
func CheckDeadlines(op string, id SessionID, timeout, quiet, max time.Duration) error {
	switch {
	case timeout < 0:
		return invalidField(op, id, "timeout", "must not be negative")
	case quiet < 0:
		return invalidField(op, id, "quietWindow", "must not be negative")
	case max > 0 && timeout > max:
		return invalidField(op, id, "timeout", timeout.String()+" exceeds the maximum of "+max.String())
	case max > 0 && quiet > max:
		return invalidField(op, id, "quietWindow", quiet.String()+" exceeds the maximum of "+max.String())
	}
	return nil
}

func invalidField(op string, id SessionID, field, msg string) error {
	return newError(CodeInvalidArgument, op, id, field+": "+msg)
}
