package jobs

import "github.com/ptyseam/ptyseam/core"

// Error codes the jobs layer adds to the core's. Every error of this
// package is a *core.Error (match it with errors.Is against core's
// sentinels or the ones below) or a *ConfigError.
const (
	// CodeJobRunning: the operation needs a job that has ended (dropping a
	// running job's record).
	CodeJobRunning core.Code = "JOB_RUNNING"
	// CodeOutputReleased: the job's output is no longer readable.
	CodeOutputReleased core.Code = "OUTPUT_RELEASED"
)

// Sentinels for errors.Is.
var (
	ErrJobRunning     = &core.Error{Code: CodeJobRunning}
	ErrOutputReleased = &core.Error{Code: CodeOutputReleased}
)

func jobError(code core.Code, op, id, msg string) error {
	return &core.Error{Code: code, Op: op, Session: core.SessionID(id), Msg: msg}
}

func invalid(op, msg string) error {
	return &core.Error{Code: core.CodeInvalidArgument, Op: op, Msg: msg}
}
