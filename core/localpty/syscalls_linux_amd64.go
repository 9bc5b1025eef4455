package localpty

import "golang.org/x/sys/unix"

// legacyWaitSyscalls are the x86_64 calls newer architectures dropped.
var legacyWaitSyscalls = map[int64]waitKind{
	unix.SYS_SELECT:     waitSelect,
	unix.SYS_POLL:       waitPoll,
	unix.SYS_EPOLL_WAIT: waitEpoll,
}
