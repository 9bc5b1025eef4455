package record_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
)

// ExampleRecorder_Wait records a session and reads its file once the
// recording is complete.
func ExampleRecorder_Wait() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "recordings")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	rec, err := record.New(record.Options{Dir: dir, All: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rec.Close()
	svc := core.New(core.Options{OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
	if err := localpty.Register(svc); err != nil {
		fmt.Println(err)
		return
	}
	defer svc.Shutdown(context.Background())
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"echo", "recorded"}, NoInitialWait: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
		fmt.Println(err)
		return
	}
	if err := rec.Wait(ctx, s.ID); err != nil { // the file is complete
		fmt.Println(err)
		return
	}
	f, err := os.Open(rec.Path(s.ID))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	r, err := record.NewReader(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	var out strings.Builder
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		if ev.Code == "o" {
			out.WriteString(ev.Data)
		}
	}
	fmt.Printf("%q\n", out.String())
	// Output:
	// "recorded\r\n"
}
