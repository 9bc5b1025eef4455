package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ptyseam/ptyseam/core/record"
)

// runPlay prints an asciicast recording to stdout at its pace, or faster.
func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ptyseam play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	speed := fs.Float64("speed", 1, "play `N` times faster (2 is twice as fast)")
	idle := fs.Duration("max-idle", 2*time.Second, "shorten every pause to at most this (0 keeps them)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: ptyseam play [flags] FILE\n\nPrints a recording (asciicast v2, as `ptyseam mcp --record-dir` writes) to the terminal at its pace.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 || *speed <= 0 || *idle < 0 {
		fs.Usage()
		return 2
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "ptyseam play: %v\n", err)
		return 1
	}
	defer f.Close()
	if err := play(ctx, f, stdout, *speed, *idle); err != nil {
		fmt.Fprintf(stderr, "ptyseam play: %v\n", err)
		return 1
	}
	return 0
}

// play writes the recording's output events to w, pausing between them
// as recorded (divided by speed, each pause at most maxIdle when set).
func play(ctx context.Context, r io.Reader, w io.Writer, speed float64, maxIdle time.Duration) error {
	rd, err := record.NewReader(r)
	if err != nil {
		return err
	}
	last := 0.0
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if ev.Code != "o" {
			continue
		}
		pause := time.Duration((ev.Time - last) / speed * float64(time.Second))
		last = max(last, ev.Time)
		if maxIdle > 0 {
			pause = min(pause, maxIdle)
		}
		if pause > 0 {
			timer.Reset(pause)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if _, err := io.WriteString(w, ev.Data); err != nil {
			return err
		}
	}
}
