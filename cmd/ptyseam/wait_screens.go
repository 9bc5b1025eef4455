package main

import (
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/screen"
)

// screenWaits lets pty_wait watch sessions' screens (kind screen); it
// knows no ids of its own.
type screenWaits struct{ *screen.Manager }

// Watch implements ptysession.WaitSource: the screen manager serves
// screens, not targets.
func (screenWaits) Watch(*core.Owner, string) (ptysession.WaitWatcher, bool, error) {
	return nil, false, nil
}
