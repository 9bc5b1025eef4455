package core

import "strings"

// Id prefixes tell the kinds of ids apart: the service mints session ids
// (terminals) with SessionIDPrefix, and the jobs layer mints job ids with
// JobIDPrefix. A call given an id of the other kind answers WRONG_KIND,
// naming the calls that take it, instead of NO_SESSION.
const (
	SessionIDPrefix = "pty_"
	JobIDPrefix     = "job_"
)

// IsJobID reports whether id has the jobs layer's prefix.
func IsJobID(id string) bool { return strings.HasPrefix(id, JobIDPrefix) }

// IsSessionID reports whether id has the service's session prefix.
func IsSessionID(id string) bool { return strings.HasPrefix(id, SessionIDPrefix) }

// NewJobID mints a job id: JobIDPrefix and 128 random bits, like a
// session id.
func NewJobID() string {
	return JobIDPrefix + strings.TrimPrefix(string(newSessionID()), SessionIDPrefix)
}
