// Package scripted is a test kit for code built on ptyseam: an in-memory
// terminal that follows a script (given this input line, print this, and
// settle the send with this reason), registered as a core backend so that
// a core.Service, and the ptysession facade over it, run over it exactly
// as over a real terminal. It starts no process, so a toolkit's unit tests
// run in microseconds to milliseconds, deterministically; the real-children
// reference (testharness.Registry, the children program) stays the tool for
// testing backends themselves.
//
// How each settle reason is produced:
//
//   - WaitPrompt (the default): the reply, then the prompt wrapped in the
//     shell's OSC 133 markers, carrying the reply's exit code, which the
//     send reports as ExitCode.
//   - WaitStdinRead: the reply (a question such as "Password: "), then the
//     terminal reports its program blocked reading input, as the local PTY
//     backend's probe does.
//   - WaitInferredIdle: the reply, then nothing: the send settles when the
//     output has been quiet for the send's quiet window (pass a short
//     QuietWindow in tests).
//   - WaitSessionExit: the reply, then the program exits with ExitCode.
//
// Input is echoed as a terminal in canonical mode echoes it ("\r\n" for
// Enter) unless Script.NoEcho; "\x03" (or SIGINT) prints "^C" and a fresh
// prompt; output "\n" becomes "\r\n" as a terminal's output processing
// does.
package scripted
