package ptytools

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// sendLimits tells a model, in pty_send's description, how long a send
// waits: the service's default deadline and silence window.
var sendLimits = fmt.Sprintf("A send returns after %s at the latest (timeout; the program keeps running, pty_tail "+
	"reads what follows), or after %s without output (inferred_idle). ", seconds(core.DefaultSendTimeout), seconds(core.DefaultQuietWindow))

func seconds(d interface{ Seconds() float64 }) string {
	return fmt.Sprintf("%g s", d.Seconds())
}
