//go:build !linux

package sandbox

import "errors"

var errNotLinux = errors.New("sandboxed sessions need Linux")

func isolate(Policy) error      { return errNotLinux }
func forbidUnixSockets() error  { return errNotLinux }
func loopbackUp() error         { return errNotLinux }
func privateHome(*Policy) error { return errNotLinux }
