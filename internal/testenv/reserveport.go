package testenv

import (
	"fmt"
	"syscall"
	"testing"
)

// ReservePort returns a loopback TCP port for a program the test starts
// later to listen on (a server told its port on its command line), kept
// from every other process until the test ends.
//
// Picking a free port by listening on port 0 and closing the listener
// leaves a window: until the program binds it, the kernel may hand the
// port to anyone else (another test's listener, any connection's source
// port). ReservePort closes that window: it binds 127.0.0.1 on a port the
// kernel picks, with SO_REUSEADDR, and never listens. While that socket
// is open the kernel gives the port to no port-0 bind and no outgoing
// connection, nobody accepts connections on it, and a program that binds
// 127.0.0.1 or all addresses on it with SO_REUSEADDR (Go's listeners,
// Python's http.server, most servers) can listen. The socket is closed
// when the test ends.
func ReservePort(tb testing.TB) int {
	tb.Helper()
	port, closeFn, err := reservePort()
	if err != nil {
		tb.Fatalf("reserve a port: %v", err)
	}
	tb.Cleanup(closeFn)
	return port
}

func reservePort() (port int, closeFn func(), err error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return 0, nil, fmt.Errorf("socket: %w", err)
	}
	fail := func(what string, err error) (int, func(), error) {
		_ = syscall.Close(fd)
		return 0, nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		return fail("SO_REUSEADDR", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return fail("bind", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		return fail("getsockname", err)
	}
	in4, ok := sa.(*syscall.SockaddrInet4)
	if !ok || in4.Port == 0 {
		return fail("getsockname", fmt.Errorf("no port in %v", sa))
	}
	return in4.Port, func() { _ = syscall.Close(fd) }, nil
}
