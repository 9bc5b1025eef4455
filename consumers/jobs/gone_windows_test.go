package jobs

import "github.com/ptyseam/ptyseam/testharness"

// goneOrZombie reports that pid no longer runs.
func goneOrZombie(pid int) bool { return !testharness.ProcessAlive(pid) }
