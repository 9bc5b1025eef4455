// Package bench measures ptyseam side by side with the baselines and peers a
// user would otherwise use, in one run, and reports ratios (see
// docs/performance.md and `make bench`). Peers (Netflix/go-expect, tmux) live
// in this module only, never in the library modules' dependencies.
package bench
