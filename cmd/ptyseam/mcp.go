package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/ptyseam/ptyseam/core/localpty"
)

// runMCP serves the tools until the client disconnects (stdio) or ctx
// ends (HTTP), then closes every session.
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseConfig(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ptyseam mcp: %v\n", err)
		return 2
	}
	// parseConfig removed the token's variable from the environment the
	// sessions inherit; the server's own /proc entries still hold it.
	if err := hideProcEntries(); err != nil {
		fmt.Fprintf(stderr, "ptyseam mcp: keeping the token from the sessions: %v\n", err)
		return 1
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: parseLevel(cfg.LogLevel)}))
	// A previous server that died without cleaning up (SIGKILL, a crash)
	// left its sessions' processes in their cgroup leaves: end them now.
	if n, err := localpty.ReapStaleCgroups(ctx, log); err != nil {
		log.Error("ptyseam: processes of a dead server could not be killed", "error", err)
	} else if n > 0 {
		log.Warn("ptyseam: killed processes left by a server that died", "count", n)
	}
	ts, err := newToolServer(cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "ptyseam mcp: %v\n", err)
		return 1
	}
	if cfg.HTTPAddr != "" {
		err = serveHTTP(ctx, cfg, ts, stderr)
	} else {
		wctx, stopWatch := context.WithCancel(ctx)
		watchDone := make(chan error, 1)
		if cfg.Watch.Addr != "" {
			ln, lerr := listenWatch(cfg)
			if lerr != nil {
				stopWatch()
				_ = ts.shutdown(context.Background())
				fmt.Fprintf(stderr, "ptyseam mcp: %v\n", lerr)
				return 2
			}
			go func() { watchDone <- serveWatch(wctx, ln, ts, stderr) }()
		} else {
			watchDone <- nil
		}
		err = ts.server.Run(ctx, &lineTransport{in: stdin, out: stdout})
		stopWatch()
		if werr := <-watchDone; werr != nil {
			fmt.Fprintf(stderr, "ptyseam mcp: watch page: %v\n", werr)
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if serr := ts.shutdown(sctx); serr != nil {
		fmt.Fprintf(stderr, "ptyseam mcp: shutdown: %v\n", serr)
		return 1
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "ptyseam mcp: %v\n", err)
		return 1
	}
	return 0
}

func parseLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelWarn
	}
	return l
}
