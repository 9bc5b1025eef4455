// Package jobs runs background jobs on a ptyseam core service: dev servers,
// watchers and long builds that an agent launches, feeds input, pages
// through and stops, as the pty-runner ("backstage") seed describes.
//
// A job is a core session (on a PTY, backend "exec", or on pipes, backend
// "pipe" from the pipebackend sub-package) owned by the caller's
// *core.Owner, so another owner cannot see or touch it (FOREIGN_SESSION).
// The [Manager] adds what the seed lists on top of the session:
//
//   - groups (a default group is configurable) and titles;
//   - a status machine: running -> stopping -> finished (exit 0) | failed
//     (non-zero exit or a signal) | stopped (with a reason: user, timeout,
//     shutdown, or forced when the grace period ran out and the job had to
//     be killed);
//   - a timeout after which the job is stopped;
//   - a pre-launch check of the ports the job will want, which warns when
//     one is taken, and detection of the service addresses (URLs such as
//     http://localhost:5173) the job prints;
//   - input with backslash escapes ("\x03" is Ctrl-C; see the escape
//     sub-package);
//   - reads by global line number with a regex filter, resuming where the
//     last read ended, that say whether history was dropped and how much;
//   - events (created, data, exit, dropped) to subscribers that cannot block
//     a job, and an exit notification for jobs launched with one;
//   - graceful stop (SIGTERM, then SIGKILL after the grace period), group
//     stop, dropping finished records, and a Shutdown that leaves no
//     process behind.
//
// The job's output lives in its core session's scrollback (ANSI stripped,
// lines numbered from 0, long lines cut keeping their tail), which stays
// readable after the job ended, until its record is dropped: dropping a
// record closes the session, which also ends any process the job left
// behind outside its process group.
package jobs
