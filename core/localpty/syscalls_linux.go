package localpty

import "golang.org/x/sys/unix"

// waitKind classifies the system calls in which a process waits for input.
type waitKind int

const (
	waitOther  waitKind = iota
	waitRead            // read(fd, ...)
	waitSelect          // select/pselect6(nfds, readfds, ...)
	waitPoll            // poll/ppoll(fds, nfds, ...)
	waitEpoll           // epoll_wait/epoll_pwait/epoll_pwait2(epfd, ...)
	waitTimer           // nanosleep/clock_nanosleep: at work, not waiting for input
)

// waitSyscalls maps this architecture's system call numbers (they differ
// between x86_64 and arm64) to their kind. legacyWaitSyscalls adds the
// calls only some architectures have.
var waitSyscalls = func() map[int64]waitKind {
	m := map[int64]waitKind{
		unix.SYS_READ:         waitRead,
		unix.SYS_PSELECT6:     waitSelect,
		unix.SYS_PPOLL:        waitPoll,
		unix.SYS_EPOLL_PWAIT:  waitEpoll,
		unix.SYS_EPOLL_PWAIT2: waitEpoll,
		// A task that sleeps on a timer (sleep, time.sleep, usleep).
		unix.SYS_NANOSLEEP:       waitTimer,
		unix.SYS_CLOCK_NANOSLEEP: waitTimer,
	}
	for nr, k := range legacyWaitSyscalls {
		m[nr] = k
	}
	return m
}()
