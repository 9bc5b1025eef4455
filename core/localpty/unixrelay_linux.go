package localpty

import (
	"slices"

	"golang.org/x/sys/unix"
)

// unixRelayAmong reports whether one of the descriptors that pid watches
// beside the terminal is a UNIX stream connection to a process outside
// the foreground group: a client of a local server (nc -U, socat, a Node
// or asyncio client on the server's socket), whose wait says nothing of whether
// the server has answered. The peer is the process that listened (or
// made the pair), as SO_PEERCRED gives it on a copy of the descriptor
// (pidfd_getfd, Linux 5.6+); a socketpair of the program's own, an event
// loop's self-pipe, has the program as its peer. A descriptor the probe
// cannot copy or ask counts as no relay.
func unixRelayAmong(pid int, fds []int, group []member) bool {
	return len(unixPeersOutside(pid, fds, group)) > 0
}

// unixPeersOutside returns the peers outside the foreground group of
// those of pid's descriptors fds that are UNIX stream connections (see
// unixRelayAmong).
func unixPeersOutside(pid int, fds []int, group []member) []int {
	if len(fds) == 0 {
		return nil
	}
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(pidfd)
	var peers []int
	for _, fd := range fds {
		if peer, ok := unixStreamPeer(pidfd, fd); ok && !slices.ContainsFunc(group, func(m member) bool { return m.pid == int(peer) }) {
			peers = append(peers, int(peer))
		}
	}
	return peers
}

// unixStreamPeer returns the peer's process id of the target's descriptor
// fd when it is a connected UNIX stream socket.
func unixStreamPeer(pidfd, fd int) (int32, bool) {
	own, err := unix.PidfdGetfd(pidfd, fd, 0)
	if err != nil {
		return 0, false
	}
	defer unix.Close(own)
	if d, err := unix.GetsockoptInt(own, unix.SOL_SOCKET, unix.SO_DOMAIN); err != nil || d != unix.AF_UNIX {
		return 0, false
	}
	if t, err := unix.GetsockoptInt(own, unix.SOL_SOCKET, unix.SO_TYPE); err != nil || t != unix.SOCK_STREAM && t != unix.SOCK_SEQPACKET {
		return 0, false
	}
	cred, err := unix.GetsockoptUcred(own, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil || cred.Pid <= 0 {
		return 0, false
	}
	return cred.Pid, true
}
