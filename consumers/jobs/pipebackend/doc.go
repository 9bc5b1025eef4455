// Package pipebackend is a ptyseam core backend of type "pipe": it runs a
// program with plain pipes instead of a pseudo-terminal, for programs that
// need no terminal (build tools, servers, log followers) and for platforms
// or setups without PTY support.
//
// The program's stdout and stderr are merged into one stream, in the order
// the program wrote them (both are the same pipe). Its stdin is a pipe that
// [core.Service.Write] writes to; the Enter key is "\n" (the session
// says so in its core.Facts). The program runs in its own process
// group; signals go to that group. There is no terminal: no echo, no line
// editing, no job control, no window size (Resize fails with UNSUPPORTED),
// and programs that only flush their output on a terminal may buffer it.
//
// When the program exits, what it left in its process group is hung up,
// as a terminal hangs up its foreground group when its shell exits:
// SIGHUP (and SIGCONT) to the group, SIGKILL to the rest after CloseGrace.
// Processes that left the group (setsid) are ended by Close.
//
// Close honours the core teardown contract: it sends SIGTERM to every
// process of the session, waits up to CloseGrace, kills what is left with
// SIGKILL, and returns only when they are gone (zombies count as gone), or
// a *core.CleanupError naming the survivors. On Linux the session's
// processes are found in /proc by process group, by descent from the
// program, and by the session marker every process inherits in its
// environment ([MarkerEnv]), so children that called setsid and
// double-forked are found too. Elsewhere only the process group is used.
package pipebackend
