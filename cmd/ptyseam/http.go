package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP serves the streamable HTTP transport until ctx ends. Every
// request must carry the bearer token; each MCP session is its own owner.
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
	srv := &http.Server{Handler: requireToken(token, handler), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "ptyseam mcp: serving MCP over HTTP at http://%s/ (Authorization: Bearer <token>)\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	return nil
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

// requireToken refuses requests without "Authorization: Bearer <token>".
func requireToken(token string, next http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ptyseam"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func randomToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
