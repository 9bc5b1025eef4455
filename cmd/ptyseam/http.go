package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/web"
)

// httpStopTimeout bounds the HTTP part of a shutdown: closing every MCP
// session and waiting for the server's connections to end.
const httpStopTimeout = 2 * time.Second

// serveHTTP serves the streamable HTTP transport until ctx ends. Every
// request must carry the bearer token and, if it has an Origin, come from
// the server's own origin; each MCP session is its own owner.
func serveHTTP(ctx context.Context, cfg config, ts *toolServer, stderr io.Writer) error {
	ln, err := listen(cfg)
	if err != nil {
		return err
	}
	token := cfg.Token
	if token == "" {
		token = randomToken()
		fmt.Fprintf(stderr, "ptyseam mcp: generated bearer token: %s\n", token)
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ts.server },
		&mcp.StreamableHTTPOptions{SessionTimeout: cfg.SessionTimeout, Logger: ts.log})
	var stopping atomic.Bool
	limited := &clientLimiter{max: cfg.Limits.Clients, alive: ts.liveSessions, next: handler}
	mux := http.NewServeMux()
	mux.Handle("/", requireToken(token, endCallsOnDelete(ts, limited)))
	// Browsers ask for an icon on every page; it holds nothing to guard.
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	watchLink := ""
	if ts.hub != nil {
		auth := web.NewAuth(token)
		mux.Handle("/watch/", web.Handler(ts.hub, auth))
		watchLink = auth.OneTimeLink("http://" + ln.Addr().String())
	}
	srv := &http.Server{
		Handler:           refuseWhileStopping(&stopping, checkOrigin(ln.Addr().String(), mux)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(stderr, "ptyseam mcp: serving MCP over HTTP at http://%s/ (Authorization: Bearer <token>)\n", ln.Addr())
	if watchLink != "" {
		fmt.Fprintf(stderr, "ptyseam mcp: watch page: %s (one-time link; or sign in at http://%s/watch/ with the token)\n", watchLink, ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stopping.Store(true)
	stopHTTP(srv, ts)
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// stopHTTP stops accepting requests, ends every MCP session (their calls
// first) and waits, at most httpStopTimeout, for the connections to end.
// http.Server.Shutdown alone never returns while a client holds a session
// open: its event stream is an active request.
func stopHTTP(srv *http.Server, ts *toolServer) {
	ctx, cancel := context.WithTimeout(context.Background(), httpStopTimeout)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(ctx) }() // closes the listener at once
	ts.closeClients(ctx)
	if err := <-shut; err != nil {
		ts.log.Warn("ptyseam: HTTP connections still open at shutdown; closing them", "error", err)
		_ = srv.Close()
	}
}

// endCallsOnDelete cancels the calls in flight of the MCP session a DELETE
// ends before the handler closes it: the handler's close waits for them,
// and a call can take until its deadline (an open on a far side that does
// not answer).
func endCallsOnDelete(ts *toolServer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get("Mcp-Session-Id"); r.Method == http.MethodDelete && id != "" {
			ts.endCalls(id)
		}
		next.ServeHTTP(w, r)
	})
}

// refuseWhileStopping answers 503 once shutdown began: a client whose
// event stream the shutdown ended reconnects at once, and a new stream on
// a keep-alive connection would hold http.Server.Shutdown until its
// deadline.
func refuseWhileStopping(stopping *atomic.Bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stopping.Load() {
			w.Header().Set("Connection", "close")
			http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// listen binds cfg.HTTPAddr, refusing a non-loopback address unless
// --allow-remote was given.
func listen(cfg config) (net.Listener, error) {
	host, _, err := net.SplitHostPort(cfg.HTTPAddr)
	if err != nil {
		return nil, fmt.Errorf("--http %q: %w", cfg.HTTPAddr, err)
	}
	if !cfg.AllowRemote && !isLoopback(host) {
		return nil, errors.New("--http " + cfg.HTTPAddr + " is not a loopback address; pass --allow-remote to expose shells to the network")
	}
	return net.Listen("tcp", cfg.HTTPAddr)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// randomToken returns a bearer token of 48 hex digits.
func randomToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
