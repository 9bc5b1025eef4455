package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/web"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/record"
)

// watchFlags are the deployer's settings of the watch page (docs/supervision.md).
type watchFlags struct {
	// Addr serves the page for the stdio server on its own loopback
	// port, with its own token ("" = off; --http serves it under /watch/).
	Addr string
	// Off turns the page off under --http.
	Off bool
	// ReadOnly turns taking control off.
	ReadOnly bool
	// Human is what a model's send does while a person is in control:
	// "refuse" or "wait".
	Human string
	// MaxViewers bounds the page's WebSocket connections.
	MaxViewers int
	// RecordDir, when set, is where sessions are recorded (asciicast);
	// RecordRequested records only sessions opened with record:true.
	RecordDir       string
	RecordRequested bool
}

func (w *watchFlags) flags(fs *flag.FlagSet) {
	fs.StringVar(&w.Addr, "watch", "", "serve the watch page for the stdio server on loopback `ADDR` (e.g. 127.0.0.1:8766), with its own token;\nit prints a one-time link (under --http the page is at /watch/ of the same address)")
	fs.BoolVar(&w.Off, "no-watch", false, "do not serve the watch page under --http")
	fs.BoolVar(&w.ReadOnly, "watch-read-only", false, "the watch page only watches: nobody can take control of a session")
	fs.StringVar(&w.Human, "human-control", "refuse", "what a model's send does while a person is in control of its session: refuse (HUMAN_IN_CONTROL at once)\nor wait (held until the person hands back, within the send's timeout)")
	fs.IntVar(&w.MaxViewers, "watch-viewers", web.DefaultMaxViewers, "maximum terminals the watch page streams at once (WebSocket connections)")
	fs.StringVar(&w.RecordDir, "record-dir", "", "record every session to an asciicast file in `DIR` (replay with \"ptyseam play FILE\" or asciinema);\ninput typed at a prompt that hides or masks it (a password) is not recorded")
	fs.BoolVar(&w.RecordRequested, "record-requested", false, "with --record-dir, record only the sessions opened with pty_open's record: true")
}

func (w *watchFlags) check(httpAddr string) error {
	switch w.Human {
	case "refuse", "wait":
	default:
		return fmt.Errorf("--human-control must be refuse or wait, got %q", w.Human)
	}
	if w.Addr != "" && httpAddr != "" {
		return errors.New("--watch is for the stdio server; under --http the watch page is at /watch/ of the same address")
	}
	if w.RecordRequested && w.RecordDir == "" {
		return errors.New("--record-requested needs --record-dir")
	}
	if w.MaxViewers < 1 {
		return errors.New("--watch-viewers must be at least 1")
	}
	return nil
}

// on reports whether the server serves the watch page.
func (w *watchFlags) on(httpAddr string) bool {
	return w.Addr != "" || (httpAddr != "" && !w.Off)
}

func (w *watchFlags) policy() core.HumanPolicy {
	if w.Human == "wait" {
		return core.HumanWait
	}
	return core.HumanRefuse
}

// listenWatch binds the stdio server's watch page address, refusing a
// non-loopback one unless --allow-remote was given.
func listenWatch(cfg config) (net.Listener, error) {
	host, _, err := net.SplitHostPort(cfg.Watch.Addr)
	if err != nil {
		return nil, fmt.Errorf("--watch %q: %w", cfg.Watch.Addr, err)
	}
	if !cfg.AllowRemote && !isLoopback(host) {
		return nil, errors.New("--watch " + cfg.Watch.Addr + " is not a loopback address; pass --allow-remote to expose the terminals to the network")
	}
	return net.Listen("tcp", cfg.Watch.Addr)
}

// serveWatch serves the stdio server's watch page on ln until ctx ends,
// with its own random token (not the MCP server's: the stdio server has
// none); it prints a one-time link and the token, for signing in again
// later.
func serveWatch(ctx context.Context, ln net.Listener, ts *toolServer, stderr io.Writer) error {
	token := randomToken()
	auth := web.NewAuth(token)
	base := "http://" + ln.Addr().String()
	srv := &http.Server{Handler: checkOrigin(ln.Addr().String(), web.Handler(ts.hub, auth)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "ptyseam mcp: watch page: %s (one-time link; or sign in at %s/watch/ with the page's token %s)\n", auth.OneTimeLink(base), base, token)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), httpStopTimeout)
	defer cancel()
	ts.hub.Close() // ends the WebSockets, which Shutdown does not wait for
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	<-errc
	return nil
}

// observers builds the watch page's hub and the recorder the deployer
// asked for (either may be nil).
func observers(cfg config, log *slog.Logger) (*web.Hub, *record.Recorder, error) {
	var hub *web.Hub
	if cfg.Watch.on(cfg.HTTPAddr) {
		hub = web.NewHub(web.Options{ReadOnly: cfg.Watch.ReadOnly, MaxViewers: cfg.Watch.MaxViewers, RecordDir: cfg.Watch.RecordDir})
	}
	var rec *record.Recorder
	if cfg.Watch.RecordDir != "" {
		var err error
		if rec, err = record.New(record.Options{Dir: cfg.Watch.RecordDir, All: !cfg.Watch.RecordRequested, Logger: log}); err != nil {
			return nil, nil, err
		}
	}
	return hub, rec, nil
}
