package testharness_test

import (
	"context"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/testharness"
)

// The fake registry runs real programs: here the harness's echo REPL,
// whose prompt carries an OSC 133;B marker, so the send settles on it.
// Its books keep each session to its owner.
func ExampleNewRegistry() {
	ctx := context.Background()
	bin, err := testharness.ChildrenBinary(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := testharness.NewRegistry(localpty.NewExec(localpty.ExecOptions{}))
	defer reg.Shutdown(ctx)

	owner := core.NewOwner("example")
	res, err := reg.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{bin, "echo-repl", "--marker"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("initial output %q\n", res.InitialOutput)
	op, err := reg.Send(ctx, owner, res.ID, core.SendRequest{Data: "hello"})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := op.Wait(ctx)
	fmt.Printf("%s %q\n", out.WaitReason, out.Delta)
	_, err = reg.Read(core.NewOwner("someone else"), res.ID, core.PageRequest{})
	fmt.Println(core.CodeOf(err))
	closed, err := reg.Close(ctx, owner, res.ID, "done")
	fmt.Println(closed, err)
	// Output:
	// initial output "> "
	// prompt "hello\nhello\n> "
	// FOREIGN_SESSION
	// true <nil>
}

// FloodLine says what line i of the flood child is, so a test can check a
// page by absolute line numbers.
func ExampleFloodLine() {
	fmt.Println(testharness.FloodLine(42))
	n, ok := testharness.ParseFloodLine("flood 000042 the quick brown fox jumps over the lazy dog")
	fmt.Println(n, ok)
	// Output:
	// flood 000042 the quick brown fox jumps over the lazy dog
	// 42 true
}

// A malformed burst is reported with where it went wrong.
func ExampleVerifyBurst() {
	_, err := testharness.VerifyBurst([]byte("00000000 JKL\r\nburst-end bytes=99 crc32=00000000\r\n"))
	fmt.Println(err)
	// Output:
	// burst output mismatch: got 12 pattern bytes, the trailer says 99
}
