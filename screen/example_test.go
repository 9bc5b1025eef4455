package screen_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
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
