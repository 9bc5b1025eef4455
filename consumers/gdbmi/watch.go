package gdbmi

import "context"

// WatchKind says which accesses a watchpoint stops on.
type WatchKind int

const (
	// WatchWrite stops when the value changes (-break-watch).
	WatchWrite WatchKind = iota
	// WatchRead stops when the value is read (-break-watch -r; hardware
	// only).
	WatchRead
	// WatchAccess stops when the value is read or written (-break-watch
	// -a; hardware only).
	WatchAccess
)

// Watchpoint is a watchpoint as -break-watch and *stopped describe it.
type Watchpoint struct {
	// Number is the watchpoint's number (it shares the breakpoints'
	// numbering: delete it with [Client.BreakDelete]).
	Number BreakpointNumber `mi:"number"`
	// Exp is the watched expression.
	Exp string `mi:"exp"`
}

// WatchValue is the value part of a watchpoint stop: Old and New for a
// write (and for an access that changed the value), Value for a read (and
// an access that did not change it). gdb renders the values as it prints
// them ("2", "0x5555 \"text\"", "{a = 1, b = 2}").
type WatchValue struct {
	Old   string `mi:"old"`
	New   string `mi:"new"`
	Value string `mi:"value"`
}

// WatchInsert sets a watchpoint on expr (-break-watch), evaluated in the
// selected frame or the one opts name: a local's watchpoint ends when its
// frame returns (a "watchpoint-scope" stop). A stop it causes has reason
// "watchpoint-trigger" (or "read-watchpoint-trigger",
// "access-watchpoint-trigger") with [StoppedEvent.Watchpoint] and
// [StoppedEvent.Value] set.
//
// gdb uses the processor's debug registers when it can. Where the kernel
// or a virtual machine does not honour them, hardware watchpoints never
// trigger: [Options.SoftwareWatchpoints] makes write watchpoints software
// ones (gdb single-steps the program: correct, much slower); read and
// access watchpoints exist in hardware only. The first time gdb sets a
// hardware watchpoint, the client finds out whether this machine honours
// them, with a probe (a second gdb watches the stack of the "true"
// program; 0.2-0.4 s, once per client); where it does not, WatchInsert
// deletes the hardware watchpoint again and returns
// [ErrNoHardwareWatchpoints], which says what to do.
func (c *Client) WatchInsert(ctx context.Context, expr string, kind WatchKind, opts ...ReadOption) (*Watchpoint, error) {
	var args []string
	switch kind {
	case WatchRead:
		args = append(args, "-r")
	case WatchAccess:
		args = append(args, "-a")
	}
	res, err := c.execIn(ctx, opts, "-break-watch", append(args, expr)...)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"wpt", "hw-rwpt", "hw-awpt"} {
		if v := res.Get(name); !v.IsNone() {
			var w Watchpoint
			if err := Decode(v, &w); err != nil {
				return nil, err
			}
			if err := c.refuseHardware(ctx, kind, &w); err != nil {
				return nil, err
			}
			return &w, nil
		}
	}
	return nil, &DecodeError{Msg: "-break-watch answered without a watchpoint"}
}

// decodeStopped decodes a *stopped record. A field gdb printed oddly
// leaves the rest usable (Record has it all).
func decodeStopped(r Record) *StoppedEvent {
	st := &StoppedEvent{Record: r}
	_ = r.Decode(st)
	for _, name := range []string{"wpt", "hw-rwpt", "hw-awpt"} {
		if v := r.Get(name); !v.IsNone() {
			var w Watchpoint
			if Decode(v, &w) == nil {
				st.Watchpoint = &w
			}
			break
		}
	}
	if n := r.Get("wpnum").Str(); n != "" && st.Watchpoint == nil {
		st.Watchpoint = &Watchpoint{Number: BreakpointNumber(n)}
	}
	return st
}
