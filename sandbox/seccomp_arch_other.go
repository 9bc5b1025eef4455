//go:build linux && !amd64 && !arm64

package sandbox

// No filter is written for this architecture: the launcher refuses.
const (
	auditArch = 0
	x32Bit    = 0
)
