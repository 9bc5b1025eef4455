package portprobe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"time"
)

// ErrInvalidPort reports a port outside 1..65535.
var ErrInvalidPort = errors.New("portprobe: port must be in 1..65535")

// DialTimeout bounds each connection attempt of [Probe].
const DialTimeout = 300 * time.Millisecond

// Result is what [Probe] found out about one port.
type Result struct {
	// Port is the port probed.
	Port int
	// InUse reports that something already listens on the port.
	InUse bool
	// Detail says how that was seen ("127.0.0.1:8000 accepts connections",
	// "binding :8000: address already in use"), empty when the port is free.
	Detail string
}

// Probe reports whether TCP port is in use on this machine: it tries to
// connect on the IPv4 and IPv6 loopback addresses, and when nobody answers
// it tries to bind the port on all addresses (and releases it at once). A
// port it cannot bind for another reason (permission) is reported free with
// the reason in Detail, since the program may have the right to bind it.
func Probe(ctx context.Context, port int) (Result, error) {
	if port < 1 || port > 65535 {
		return Result{Port: port}, fmt.Errorf("%w: %d", ErrInvalidPort, port)
	}
	r := Result{Port: port}
	ps := strconv.Itoa(port)
	d := net.Dialer{Timeout: DialTimeout}
	for _, host := range []string{"127.0.0.1", "::1"} {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		addr := net.JoinHostPort(host, ps)
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			_ = c.Close()
			r.InUse, r.Detail = true, addr+" accepts connections"
			return r, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "tcp", ":"+ps)
	if err == nil {
		_ = l.Close()
		return r, nil
	}
	if errors.Is(err, syscall.EADDRINUSE) {
		r.InUse, r.Detail = true, "binding :"+ps+": address already in use"
		return r, nil
	}
	r.Detail = "could not bind :" + ps + " to check it: " + err.Error()
	return r, nil
}

// ProbeAll probes each port in turn (duplicates once) and returns the
// results in the order given. It stops at the first invalid port or when
// ctx is done.
func ProbeAll(ctx context.Context, ports []int) ([]Result, error) {
	seen := make(map[int]bool, len(ports))
	out := make([]Result, 0, len(ports))
	for _, p := range ports {
		if seen[p] {
			continue
		}
		seen[p] = true
		r, err := Probe(ctx, p)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}
