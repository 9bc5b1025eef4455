package testenv

import (
	"net"
	"sync"
	"testing"
)

// SilentListener listens on network and address, accepts every connection
// and never answers one, as a server stuck in its own locks (or one that
// does not speak the protocol) does, and returns the address it listens
// on. The listener and the connections close when the test ends.
func SilentListener(tb testing.TB, network, address string) string {
	tb.Helper()
	ln, err := net.Listen(network, address)
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	})
	tb.Cleanup(func() {
		_ = ln.Close()
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}
