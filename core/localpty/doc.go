// Package localpty is ptyseam's default backend: programs on local
// pseudo-terminals (github.com/creack/pty), read through the Go netpoller,
// torn down to quiescence.
//
// Two backend types are provided:
//
//   - "shell" ([NewShell]) runs an interactive shell (by default
//     `bash --noprofile --norc -i`) with a prompt marker installed through
//     the environment: PS1 ends with OSC 133;B and PROMPT_COMMAND prints
//     OSC 133;D;<status> after every command, so the service learns when a
//     command finished and with which exit status. The shell unexports
//     them before its first prompt, so the programs it starts (sh, a
//     nested bash) keep their own prompts.
//   - "exec" ([NewExec]) runs the request's argv directly on the terminal.
//
// Every process a session starts inherits PTYSEAM_SESSION=<marker>
// ([MarkerEnv]). On Linux a session runs in its own cgroup v2 leaf when one
// can be created, and Close empties it with cgroup.kill; elsewhere (or with
// [Options.DisableCgroup]) Close finds the session's processes by a /proc
// scan (the marker, the session id, and their descendants), identified by
// pid and start time so that a reused pid is never signalled.
//
// A session also implements [core.Prober]: on Linux it answers whether
// the terminal's foreground process group is blocked reading the terminal
// with nothing in flight, from a handful of small /proc reads, and the
// other questions (echo mode, control characters, who reads, what was
// read, where the output ends); elsewhere it says it cannot tell
// (core.ErrUnsupported). Its [core.TryIO] reads and writes without
// waiting.
//
// On Windows, Spawn hands the request to core/conpty: the program runs on a
// pseudo console (ConPTY) in a Job Object, the shell is cmd.exe, and the
// sessions are conpty's (no input watching, no prompt marker).
//
// See docs/localpty.md for the teardown strategy and measured figures.
package localpty
