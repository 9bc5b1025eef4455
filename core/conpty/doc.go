// Package conpty is ptyseam's terminal backend for Windows: programs on a
// pseudo console (ConPTY, CreatePseudoConsole), called through
// golang.org/x/sys/windows.
//
// It provides the same two backend types as core/localpty does on Unix,
// "shell" ([NewShell], by default cmd.exe) and "exec" ([NewExec]), and
// core/localpty's backends use it on Windows, so that [Register] there and
// localpty.Register give the same sessions.
//
// What Windows has and has not, and how the contract of
// [core.BackendSession] maps onto it:
//
//   - Input: every "\n" a caller writes reaches the console as "\r" (a
//     "\r\n" pair as one "\r"): the console's line input ends a line on
//     carriage return only.
//   - Processes: the program is started suspended, put in a Job Object
//     created with kill-on-close, then resumed, so it and everything it
//     starts are in the job from their first instruction. Close and the
//     terminating signals end the whole job at once (TerminateJobObject);
//     when the server dies, the kernel closes the job and ends them too.
//   - Signals: SIGINT is the interrupt character ("\x03") written to the
//     console, which the console turns into a CTRL_C_EVENT for the
//     processes attached to it (method "tty-char"). SIGTERM, SIGHUP,
//     SIGQUIT and SIGKILL terminate the job (method "job-object": no
//     grace, no handler runs; SIGKILL only with AllowLeader). SIGTSTP and
//     SIGCONT are UNSUPPORTED: there are no process groups to stop.
//   - Output ends when the top-level process has exited and its output has
//     been quiet for [Options.DrainWindow]: the pseudo console is then
//     closed, which flushes what the console still holds and ends the
//     output pipe.
//   - No /proc and no foreground process group: sessions implement no
//     [core.Prober] (nor [core.TryIO]), so sends settle on inferred_idle, timeout,
//     session_exit or cancelled, never on stdin_read; the shell prints no
//     prompt marker, so never on prompt either.
//
// See docs/windows.md.
package conpty
