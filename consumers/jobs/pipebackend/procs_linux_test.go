package pipebackend

import "github.com/ptyseam/ptyseam/internal/procfs"

// zombieOrGone reports that pid is not running (a zombie is not).
func (p proc) zombieOrGone() bool { return !procfs.Alive(p.pid, 0) }
