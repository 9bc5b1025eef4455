package core_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// ExampleTap_Recycle reads a session's raw output to its end, giving each
// slice back once it is used: the tap queues the next output into it.
func ExampleTap_Recycle() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := localpty.Register(svc); err != nil {
		fmt.Println(err)
		return
	}
	defer svc.Shutdown(context.Background())
	owner := core.NewOwner("reader")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"seq", "3"}, WithTap: true, NoInitialWait: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out strings.Builder
	for {
		b, err := s.Tap.Next(ctx)
		out.Write(b)     // copied out: b is no longer needed
		s.Tap.Recycle(b) // the tap may fill it again
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("%q\n", out.String())
	// Output:
	// "1\r\n2\r\n3\r\n"
}
