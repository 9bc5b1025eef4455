package localpty

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"syscall"

	"github.com/ptyseam/ptyseam/core"
)

// wrapErr builds a *core.Error with code and message that wraps err, so
// that both errors.Is(e, core.ErrXxx) and errors.Is(e, err) hold.
func wrapErr(code core.Code, err error, msg string) *core.Error {
	return &core.Error{Code: code, Msg: msg, Err: err}
}

// errClosed is returned by operations on a closed session.
func errClosed(op string) error {
	return &core.Error{Code: core.CodeSessionClosing, Op: op, Msg: "the session is closed", Err: os.ErrClosed}
}

// errNoForeground is returned when the terminal has no foreground process
// group any more (the session's top-level process exited).
var errNoForeground = errors.New("the terminal has no foreground process group")

// checkDir validates a working directory ("" is the default).
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return wrapErr(core.CodeInvalidArgument, err, "unusable working directory")
	}
	if !fi.IsDir() {
		return wrapErr(core.CodeInvalidArgument, &os.PathError{Op: "chdir", Path: dir, Err: syscall.ENOTDIR}, "unusable working directory")
	}
	return nil
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}
