package localpty

import "github.com/ptyseam/ptyseam/core"

// SpawnOptions are per-session settings a request may carry in
// core.SpawnRequest.Options (as a SpawnOptions or *SpawnOptions); nil
// keeps every default.
type SpawnOptions struct {
	// NoControllingTerminal starts the program in a new session (setsid)
	// without making the terminal its controlling terminal. The terminal
	// then belongs to no session, so another process that opens it can
	// make it its own controlling terminal (setsid and TIOCSCTTY): gdb
	// does exactly that for a program it runs on this terminal (its
	// "inferior-tty"), which then opens /dev/tty, is the terminal's
	// foreground process group and receives SIGINT from a Ctrl-C written
	// to it. The top-level process should keep the terminal open without
	// opening terminals itself (a session leader without a controlling
	// terminal acquires the first terminal it opens). While no process
	// owns the terminal, signals sent through the service have no
	// foreground group to go to and foreground probing reports none.
	NoControllingTerminal bool
}

// spawnOptions returns the request's options or a CodeInvalidArgument
// error for a value of another type.
func spawnOptions(typ string, v any) (SpawnOptions, error) {
	switch o := v.(type) {
	case nil:
		return SpawnOptions{}, nil
	case SpawnOptions:
		return o, nil
	case *SpawnOptions:
		if o == nil {
			return SpawnOptions{}, nil
		}
		return *o, nil
	}
	return SpawnOptions{}, core.Errorf(core.CodeInvalidArgument, "the %s backend takes localpty.SpawnOptions (got %T)", typ, v)
}
