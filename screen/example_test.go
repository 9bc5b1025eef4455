package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession/tools"
	"github.com/ptyseam/ptyseam/screen"
)

// A manager plugged into a service: snapshot a program's screen, then
// press keys in it.
func ExampleManager() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m := screen.NewManager(screen.Options{})
	defer m.Close()
	svc := core.New(core.Options{OnSpawn: m.OnSpawn})
	if err := localpty.Register(svc); err != nil {
		panic(err)
	}
	m.Bind(svc)
	defer svc.Shutdown(ctx) //nolint:errcheck

	owner := core.NewOwner("example")
	res, err := m.Spawn(ctx, owner, core.SpawnRequest{
		Type:    "exec",
		Size:    core.Size{Rows: 4, Cols: 30},
		Command: []string{"bash", "--noprofile", "--norc", "-c", `printf '\033]2;demo\007\033[2J\033[2;3HPress Enter'; read; printf '\033[2J\033[HThanks'; sleep 10`},
	})
	if err != nil {
		panic(err)
	}
	s, err := m.Snapshot(ctx, owner, res.ID, screen.SnapshotOptions{})
	for err == nil && !strings.Contains(s.Text(), "Press Enter") {
		time.Sleep(10 * time.Millisecond)
		s, err = m.Snapshot(ctx, owner, res.ID, screen.SnapshotOptions{})
	}
	if err != nil {
		panic(err)
	}
	fmt.Print(s.Text())

	r, err := m.SendKeys(ctx, owner, res.ID, screen.KeysRequest{Keys: []string{"Enter"}})
	for err == nil && r.Screen.Rows[0] != "Thanks" {
		time.Sleep(10 * time.Millisecond)
		r.Screen, err = m.Snapshot(ctx, owner, res.ID, screen.SnapshotOptions{})
	}
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Screen.Rows[0])
	// Output:
	// screen 4x30, cursor row 1 col 13, title "demo"
	// 0 |
	// 1>|  Press Enter
	// (rows 2-3 blank)
	// Thanks
}

// peekResult is the structured result of the example's own tool.
type peekResult struct {
	ID    string `json:"id"`
	Lines int64  `json:"lines"`
}

// peekScreenResult is peekResult with the screen WithFullScreen adds.
type peekScreenResult struct {
	peekResult
	Screen *screen.Snapshot `json:"screen,omitempty"`
}

// A server's own tool that may leave a full-screen program on the
// terminal returns its screen, as pty_send does, once WithFullScreen
// wraps it.
func ExampleWithFullScreen() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m := screen.NewManager(screen.Options{})
	defer m.Close()
	svc := core.New(core.Options{OnSpawn: m.OnSpawn})
	if err := localpty.Register(svc); err != nil {
		panic(err)
	}
	m.Bind(svc)
	defer svc.Shutdown(ctx) //nolint:errcheck
	owner := core.NewOwner("example")
	res, err := m.Spawn(ctx, owner, core.SpawnRequest{
		Type:    "exec",
		Size:    core.Size{Rows: 3, Cols: 20},
		Command: []string{"bash", "--noprofile", "--norc", "-c", `printf '\033[?1049h\033[2J\033[2;3H[ OK ]'; sleep 10`},
	})
	if err != nil {
		panic(err)
	}
	rows, err := m.PeekScreen(ctx, owner, res.ID) // not a look: the tool's screen is whole
	for err == nil && !strings.Contains(strings.Join(rows, "\n"), "[ OK ]") {
		time.Sleep(10 * time.Millisecond)
		rows, err = m.PeekScreen(ctx, owner, res.ID)
	}
	if err != nil {
		panic(err)
	}

	peek := tools.Tool{
		Definition: tools.Definition{Name: "peek", Description: "Counts a session's lines.",
			InputSchema: tools.MustInferSchema[struct {
				ID string `json:"id"`
			}]()},
		Handler: tools.Typed(func(ctx context.Context, owner *core.Owner, a struct {
			ID string `json:"id"`
		}, _ func(tools.ProgressUpdate)) (tools.Result, error) {
			return tools.Result{Structured: peekResult{ID: a.ID}, Text: "[no lines]"}, nil
		}),
	}
	peek = screen.WithFullScreen(m, peek, tools.MustInferSchema[peekScreenResult](screen.SnapshotSchema()),
		func(_ json.RawMessage, r peekResult) core.SessionID { return core.SessionID(r.ID) },
		func(r peekResult, snap screen.Snapshot) any { return peekScreenResult{peekResult: r, Screen: &snap} })
	d, err := tools.NewDispatcher(tools.Options{ValidateOutput: true}, peek)
	if err != nil {
		panic(err)
	}
	out, err := d.Call(ctx, owner, "peek", json.RawMessage(`{"id":"`+string(res.ID)+`"}`), tools.CallOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Text)
	// Output:
	// [no lines; a full-screen program holds the terminal: its screen follows; type into it with pty_keys]
	// screen 3x20, cursor row 1 col 8, alternate screen
	// 0 |
	// 1>|  [ OK ]
	// 2 |
}
