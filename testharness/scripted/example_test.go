package scripted_test

import (
	"context"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness/scripted"
)

// A scripted terminal stands in for a shell in a unit test: each line of
// input gets its reply and settles the send the way the script says, with
// no process started.
func Example() {
	ctx := context.Background()
	svc := core.New(core.Options{})
	defer svc.Shutdown(ctx)
	term, _ := scripted.Register(svc, "", scripted.Script{Replies: map[string]scripted.Reply{
		"make test": {Output: "FAIL: TestParse\n", ExitCode: 1},
		"sudo true": {Output: "[sudo] password: ", Settle: core.WaitStdinRead},
	}})
	owner := core.NewOwner("unit-test")
	s, _ := svc.Spawn(ctx, owner, core.SpawnRequest{Type: scripted.Type})

	for _, line := range []string{"make test", "sudo true"} {
		op, _ := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: line})
		r, _ := op.Wait(ctx)
		code := "none"
		if r.ExitCode != nil {
			code = fmt.Sprint(*r.ExitCode)
		}
		fmt.Printf("%s: settled %s, exit code %s\n", line, r.WaitReason, code)
	}
	fmt.Println("typed:", term.Inputs())
	// Output:
	// make test: settled prompt, exit code 1
	// sudo true: settled stdin_read, exit code none
	// typed: [make test sudo true]
}
