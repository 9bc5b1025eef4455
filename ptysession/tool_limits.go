package ptysession

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// sendLimits tells a model, in pty_send's description, how long a send
// waits: the service's default deadline and silence window.
var sendLimits = fmt.Sprintf("A send returns after %s at the latest (waitReason timeout; the program keeps running and "+
	"pty_tail reads what follows), and after %s without output when the program neither exits nor waits for input "+
	"(inferred_idle). ", seconds(core.DefaultSendTimeout), seconds(core.DefaultQuietWindow))

func seconds(d interface{ Seconds() float64 }) string {
	return fmt.Sprintf("%g s", d.Seconds())
}
