//go:build unix

package jobs_test

import (
	"context"
	"fmt"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/testharness/scripted"
)

// Toolkit is an agent-toolkit adapter: the tools a toolkit registers (run a
// command in a named terminal, read what is new, start a server in the
// background, close everything) for any number of agents.
type Toolkit struct{ jobs *jobs.Manager }

// NewToolkit runs jobs beside s's terminals; s's Dispose and Shutdown end them.
func NewToolkit(s *ptysession.Sessions) (*Toolkit, error) {
	jm, err := jobs.New(s.Service(), jobs.Config{})
	if err != nil {
		return nil, err
	}
	s.Attach(jm)
	return &Toolkit{jobs: jm}, nil
}

// Run types command into the agent's terminal called name (opened on first
// use) and returns what it printed, without the echo and the prompt.
func (k *Toolkit) Run(ctx context.Context, a *ptysession.Agent, name, command string) (string, error) {
	t, _, err := a.OpenOrGet(ctx, ptysession.OpenRequest{Name: name})
	if err != nil {
		return "", err
	}
	r, err := a.Send(ctx, t.SessionID, ptysession.SendRequest{Data: command, OmitEcho: true, OmitPrompt: true, Queue: true})
	return r.Delta, err
}

// ReadNew returns what the terminal printed that the agent has not seen.
func (k *Toolkit) ReadNew(ctx context.Context, a *ptysession.Agent, name string) (string, error) {
	in, err := a.Find(ctx, name)
	if err != nil {
		return "", err
	}
	t, err := a.Tail(ctx, in.ID, 0)
	return t.Text, err
}

// Serve starts a background job for the agent.
func (k *Toolkit) Serve(ctx context.Context, a *ptysession.Agent, command string, args ...string) (string, error) {
	info, err := k.jobs.Launch(ctx, a.Owner(), jobs.LaunchRequest{Command: command, Args: args})
	return info.ID, err
}

// CloseAll ends everything the agent started: its jobs, then its terminals.
func (k *Toolkit) CloseAll(ctx context.Context, a *ptysession.Agent) error { return a.Dispose(ctx) }

// A toolkit adapter over the facade: two agents, each with a terminal named
// "build", and a background job.
func Example_toolkit() {
	ctx := context.Background()
	s, err := ptysession.NewLocal(ptysession.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Shutdown(ctx)
	kit, err := NewToolkit(s)
	if err != nil {
		panic(err)
	}
	alice, bob := s.NewAgent("alice"), s.NewAgent("bob")

	out, _ := kit.Run(ctx, alice, "build", "X=$((6*7)); echo built $X")
	fmt.Printf("alice: %q\n", out)
	out, _ = kit.Run(ctx, bob, "build", "echo ${X:-unset}")
	fmt.Printf("bob: %q\n", out)
	out, _ = kit.Run(ctx, alice, "build", "echo $X again")
	fmt.Printf("alice again: %q\n", out)
	out, _ = kit.ReadNew(ctx, alice, "build")
	fmt.Printf("alice, new: %q\n", out)

	if _, err := kit.Serve(ctx, alice, "sleep", "60"); err != nil {
		panic(err)
	}
	started, _ := alice.Started(ctx)
	for _, st := range started {
		fmt.Println(st.Kind, st.Name, st.Status)
	}
	terminals, _ := alice.List(ctx)
	fmt.Println("terminals:", len(terminals.Sessions))
	fmt.Println("close all:", kit.CloseAll(ctx, alice), kit.CloseAll(ctx, bob))
	// Output:
	// alice: "built 42\n"
	// bob: "unset\n"
	// alice again: "42 again\n"
	// alice, new: ""
	// terminal build running
	// job sleep running
	// terminals: 1
	// close all: <nil> <nil>
}

// Testing the adapter without processes: a scripted terminal answers the
// command, fast and deterministically.
func Example_toolkitTest() {
	ctx := context.Background()
	s, _ := ptysession.NewLocal(ptysession.Options{Backend: scripted.Type})
	defer s.Shutdown(ctx)
	term, _ := scripted.Register(s.Service(), "", scripted.Script{Replies: map[string]scripted.Reply{
		"make test": {Output: "PASS\n"},
		"deploy":    {Output: "Really deploy? [y/N] ", Settle: ptysession.WaitStdinRead},
	}})
	kit, _ := NewToolkit(s)
	agent := s.NewAgent("tester")

	out, _ := kit.Run(ctx, agent, "ci", "make test")
	fmt.Printf("%q\n", out)
	out, _ = kit.Run(ctx, agent, "ci", "deploy")
	fmt.Printf("%q\n", out)
	fmt.Println(term.Inputs(), kit.CloseAll(ctx, agent))
	// Output:
	// "PASS\n"
	// "Really deploy? [y/N] "
	// [make test deploy] <nil>
}
