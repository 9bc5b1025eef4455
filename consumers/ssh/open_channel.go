package ssh

import (
	"context"

	gossh "golang.org/x/crypto/ssh"
)

// openedChannel is a session channel and its requests.
type openedChannel struct {
	ch   gossh.Channel
	reqs <-chan *gossh.Request
	err  error
}

// openChannel opens a session channel on c, bounded by ctx. x/crypto
// cannot cancel an open: when ctx ends first, the channel is closed if it
// comes, and ctx's error is returned.
func (c *conn) openChannel(ctx context.Context) (openedChannel, error) {
	res := make(chan openedChannel, 1)
	c.goTracked(func() {
		ch, reqs, err := c.client.OpenChannel("session", nil)
		res <- openedChannel{ch, reqs, err}
	})
	select {
	case o := <-res:
		return o, o.err
	case <-ctx.Done():
		c.goTracked(func() {
			if o := <-res; o.err == nil {
				_ = o.ch.Close()
				gossh.DiscardRequests(o.reqs)
			}
		})
		return openedChannel{}, ctx.Err()
	}
}
