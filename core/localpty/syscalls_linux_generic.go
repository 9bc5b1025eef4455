//go:build linux && !amd64

package localpty

// legacyWaitSyscalls is empty on architectures (arm64, riscv64, ...) that
// only have pselect6, ppoll and epoll_pwait.
var legacyWaitSyscalls = map[int64]waitKind{}
