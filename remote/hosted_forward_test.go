package remote_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// A hosted Session (a container's or a pod's agent session) answers every
// question the agent's session answers: a question it does not pass on
// answers ErrUnsupported, and the service then names no busy program on a
// container target.
func TestHostedSessionForwardsEveryQuestion(t *testing.T) {
	c, _ := connectPipe(t)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	agent, err := c.Backend("exec", remote.AgentExec).Spawn(ctx, core.BackendRequest{
		Command: []string{"bash", "--norc", "--noprofile", "-i"}, Env: []string{"PS1=ready$ "}, Size: core.DefaultSize})
	if err != nil {
		t.Fatal(err)
	}
	hosted := remote.NewSession(c, agent, remote.SessionHooks{Teardown: func(context.Context) error { return nil }})
	defer func() { _ = hosted.Close(context.Background()) }()
	from, to := core.ProberOf(agent), core.ProberOf(hosted)
	questions := map[string]func(core.Prober) error{
		"Foreground":         func(p core.Prober) error { _, err := p.Foreground(); return err },
		"InputWait":          func(p core.Prober) error { _, err := p.InputWait(core.InputBaseline{}, 0); return err },
		"ForegroundGroup":    func(p core.Prober) error { _, _, err := p.ForegroundGroup(); return err },
		"DescribeForeground": func(p core.Prober) error { _, _, err := p.DescribeForeground(); return err },
		"DescribeReader":     func(p core.Prober) error { _, err := p.DescribeReader(); return err },
		"InputRead":          func(p core.Prober) error { _, err := p.InputRead(); return err },
		"EchoMode":           func(p core.Prober) error { _, err := p.EchoMode(); return err },
		"ControlChar":        func(p core.Prober) error { _, err := p.ControlChar(core.SIGINT); return err },
		"OutputEnd":          func(p core.Prober) error { _, _, err := p.OutputEnd(); return err },
	}
	for name, ask := range questions {
		agentAnswers := !errors.Is(ask(from), core.ErrUnsupported)
		hostedAnswers := !errors.Is(ask(to), core.ErrUnsupported)
		if agentAnswers != hostedAnswers {
			t.Errorf("%s: the agent's session answers %v, the hosted session %v", name, agentAnswers, hostedAnswers)
		}
	}
	if !reflect.DeepEqual(from.Facts(), to.Facts()) {
		t.Errorf("facts %+v, the agent's %+v", to.Facts(), from.Facts())
	}
}
