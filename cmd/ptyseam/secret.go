package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
	"github.com/ptyseam/ptyseam/screen"
)

// toolSecret asks the person behind the MCP client for a secret and types
// it into a terminal, without the model ever seeing it.
const toolSecret = "pty_secret"

// Bounds of pty_secret.
const (
	maxSecretMessage  = 300
	defaultSecretWait = 5 * time.Minute
	// secretFollow bounds how long pty_secret, once the user entered the
	// secret, waits for the program to ask for input again or exit.
	secretFollow = 10 * time.Second
)

// Outcomes of pty_secret: all the model learns.
const (
	secretEntered = "entered"
	secretRefused = "refused"
	secretTimeout = "timed_out"
	secretLink    = "link" // the model hands the page's link to its user
)

// secretArgs are pty_secret's arguments.
type secretArgs struct {
	ID        string `json:"id" jsonschema:"sessionId of the session asking."`
	Message   string `json:"message" jsonschema:"What the user is asked for."`
	TimeoutMs int64  `json:"timeoutMs,omitempty" jsonschema:"How long the user has, in ms (default 300000)."`
}

// secretResult is pty_secret's structured result.
type secretResult struct {
	Outcome string `json:"outcome"`
	// URL is the one-time page, with outcome link.
	URL string `json:"url,omitempty"`
	// ExpiresInMs is how long the page stays open, with outcome link.
	ExpiresInMs int64 `json:"expiresInMs,omitempty"`
	// Output is, with outcome entered, what the program printed once it
	// took the secret, up to its next question or its exit (the secret
	// itself shows as [secret]); the caller's tail moves past it.
	Output string `json:"output,omitempty"`
	// Status is, with outcome entered, the session's status when the
	// program asked for input again or exited; absent when neither came
	// within the follow-up wait.
	Status *core.Status `json:"status,omitempty"`
	// AsksAgain is, with outcome entered, set when the program then
	// reads a secret again (a confirmation, or a retry after a wrong
	// one): pty_secret takes that one too.
	AsksAgain bool `json:"asksAgain,omitempty"`
}

// secretScreenResult is pty_secret's result when the program that took
// the secret holds the terminal full-screen (pinentry asking again): its
// screen in place of its drawing stream (withSecretScreen).
type secretScreenResult struct {
	secretResult
	Screen *screen.Snapshot `json:"screen,omitempty" jsonschema:"Set when a full-screen program holds the terminal after the secret (a dialog asking again): its screen, as pty_screen returns it; output is then empty."`
}

// withSecretScreen wraps pty_secret so that, once the secret is entered,
// a program that holds the terminal full-screen (pinentry's next dialog)
// is shown by its screen, as pty_send shows it.
func withSecretScreen(screens *screen.Manager, t tools.Tool) tools.Tool {
	schema := tools.MustInferSchema[secretScreenResult](tools.Enum("outcome", secretEntered, secretRefused, secretTimeout, secretLink), screen.SnapshotSchema())
	return screen.WithFullScreen(screens, t, schema, func(args json.RawMessage, r secretResult) core.SessionID {
		var a secretArgs
		if r.Outcome != secretEntered || json.Unmarshal(args, &a) != nil {
			return ""
		}
		return core.SessionID(a.ID)
	}, func(r secretResult, snap screen.Snapshot) any {
		r.Output = ""
		return secretScreenResult{secretResult: r, Screen: &snap}
	})
}

type mcpSessionKey struct{}

// withMCPSession puts the calling MCP session in ctx, for tools that ask
// the client something (elicitation).
func withMCPSession(ctx context.Context, ss *mcp.ServerSession) context.Context {
	return context.WithValue(ctx, mcpSessionKey{}, ss)
}

func mcpSessionFrom(ctx context.Context) *mcp.ServerSession {
	ss, _ := ctx.Value(mcpSessionKey{}).(*mcp.ServerSession)
	return ss
}

// secretTool returns pty_secret over svc. When a session reads a hidden
// line (echo off: a password prompt) for a program that asks for its own
// use (not a shell, not code typed on a command line), the person types
// the secret on a one-time page on this host that shows which program
// asks; it goes straight into the terminal, followed by Enter, and the
// session hides it in everything it shows afterwards. A client with
// URL-mode elicitation opens the page for its user during the call; with
// any other client the call returns the page's link for the model to
// hand to its user, and desk keeps the page open. Once the secret is
// typed, the call waits (at most secretFollow) for the program to ask for
// input again or exit, and returns what it printed, as pty_wait would, so
// that the model needs no second call. The secret is never logged and
// never in a result.
func secretTool(svc *core.Service, sessions *ptysession.Sessions, desk *secretDesk, maxWait time.Duration) tools.Tool {
	return tools.Tool{
		Definition: tools.Definition{
			Name:  toolSecret,
			Title: "Ask the user for a password",
			Description: "When a program in a session waits for a password (pty_send settled on stdin_read and the prompt " +
				"hides input), let the user type it on a one-time page that shows which program asks; it goes into the terminal " +
				"with Enter, never to you (output shows [secret]). Any client: with URL-mode elicitation the client opens the page " +
				"(outcome entered, with what the program printed next; refused or timed_out); otherwise outcome link gives a url to hand the user, then pty_wait. " +
				"Refused when a shell or command-line code reads the prompt. Never ask the user for a secret.",
			InputSchema: tools.MustInferSchema[secretArgs](tools.NonEmpty("id"), tools.Length("message", 1, maxSecretMessage),
				tools.Range("timeoutMs", 1, maxWait.Milliseconds())),
			OutputSchema: tools.MustInferSchema[secretResult](tools.Enum("outcome", secretEntered, secretRefused, secretTimeout, secretLink)),
		},
		Handler: tools.Typed(func(ctx context.Context, owner *core.Owner, a secretArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
			wait := min(defaultSecretWait, maxWait)
			if a.TimeoutMs > 0 {
				wait = time.Duration(a.TimeoutMs) * time.Millisecond
			}
			res, err := askSecret(ctx, svc, desk, owner, core.SessionID(a.ID), a.Message, wait)
			if err != nil {
				return tools.Result{}, tools.AsToolError(err, secretHints[core.CodeOf(err)])
			}
			if res.Outcome == secretEntered {
				return followSecret(ctx, sessions, owner, a.ID, min(secretFollow, maxWait)), nil
			}
			text := map[string]string{
				secretRefused: "[the user declined: nothing was typed into " + a.ID + "]",
				secretTimeout: "[the user entered nothing in time: nothing was typed into " + a.ID + "]",
				secretLink: fmt.Sprintf("[give the user this one-time link, where they type the secret for %s: %s (open for %d s; do "+
					"not open it yourself). Then pty_wait for what the program prints next]", a.ID, res.URL, res.ExpiresInMs/1000),
			}[res.Outcome]
			return tools.Result{Structured: res, Text: text}, nil
		}),
	}
}

// followSecret waits, at most wait, for the program that took a secret in
// session id to ask for input again or exit, and returns the entered
// outcome with what it printed meanwhile.
func followSecret(ctx context.Context, sessions *ptysession.Sessions, owner *core.Owner, id string, wait time.Duration) tools.Result {
	res := secretResult{Outcome: secretEntered}
	w, err := sessions.Wait(ctx, owner, ptysession.WaitRequest{Timeout: wait, Conditions: []ptysession.WaitCondition{
		{Kind: ptysession.WaitInput, Target: id}, {Kind: ptysession.WaitExit, Target: id}}})
	switch {
	case err != nil || !w.Fired:
		return tools.Result{Structured: res, Text: "[secret entered; read what follows with pty_wait or pty_tail]"}
	case w.Kind == ptysession.WaitExit && w.Status != nil:
		res.Output, res.Status = w.Output, w.Status
		return tools.Result{Structured: res, Text: fmt.Sprintf("[secret entered; session %s]\n%s", *w.Status, w.Output)}
	}
	running := core.Running
	res.Output, res.Status = w.Output, &running
	if w.InputHidden {
		// A second prompt for a secret: a confirmation, or a retry
		// after a wrong one (sudo's "Sorry, try again.").
		res.AsksAgain = true
		return tools.Result{Structured: res, Text: "[secret entered; it asks for a secret again: call pty_secret for it, never ask the user to tell you]\n" + w.Output}
	}
	return tools.Result{Structured: res, Text: "[secret entered; waiting for input]\n" + w.Output}
}

var secretHints = map[core.Code]string{
	core.CodeUnsupported:     "Tell the user that this terminal cannot take a secret through ptyseam; do not ask them to tell it to you.",
	core.CodeInvalidArgument: "Only a program's own password prompt (sudo, ssh, gpg...) takes a secret; answer other questions with pty_send.",
	core.CodeNoSession:       "Call pty_list to see your open sessions.",
	core.CodeResourceLimit:   "Wait for the user to use or let expire the links you gave them, then retry.",
}

// askSecret runs one secret request: checks, the page, then the
// elicitation, or the link handed to desk.
func askSecret(ctx context.Context, svc *core.Service, desk *secretDesk, owner *core.Owner, id core.SessionID, message string, wait time.Duration) (secretResult, error) {
	const op = "secret"
	switch {
	case message == "" || len(message) > maxSecretMessage:
		return secretResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id, Msg: fmt.Sprintf("message: must be 1 to %d bytes", maxSecretMessage)}
	case wait <= 0:
		return secretResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id, Msg: "timeoutMs: must be positive"}
	}
	reader, err := secretPrompt(ctx, svc, owner, id)
	if err != nil {
		return secretResult{}, err
	}
	ss := mcpSessionFrom(ctx)
	if !elicitsURL(ss) {
		return desk.hold(svc, owner, id, secretPageData{Message: message, Reader: reader}, wait)
	}
	page, err := openSecretPage(secretPageData{Message: message, Reader: reader})
	if err != nil {
		return secretResult{}, err
	}
	defer page.close()
	ctx, cancel := context.WithCancel(ctx) // ends the elicitation if still open
	defer cancel()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	elicitID := randomHex(16)
	answered := make(chan string, 1)
	go func() {
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: message, URL: page.url, ElicitationID: elicitID})
		switch {
		case err != nil:
			answered <- "error"
		default:
			answered <- res.Action
		}
	}()
	for {
		select {
		case sub := <-page.submissions:
			if err := typeSubmission(ctx, svc, owner, id, reader, sub); err != nil {
				return secretResult{}, err
			}
			_ = ss.NotifyElicitationComplete(context.WithoutCancel(ctx), &mcp.ElicitationCompleteParams{ElicitationID: elicitID})
			return secretResult{Outcome: secretEntered}, nil
		case action := <-answered:
			if action != "accept" { // decline, cancel, or the client failed
				return secretResult{Outcome: secretRefused}, nil
			}
			answered = nil // the user agreed to open the page: wait for it
		case <-timer.C:
			return secretResult{Outcome: secretTimeout}, nil
		case <-ctx.Done():
			return secretResult{}, &core.Error{Code: core.CodeCancelled, Op: op, Session: id, Err: ctx.Err()}
		}
	}
}

// A password dialog, or the program that waits on it, leaves its read
// for moments (a redraw, a message to the agent that started it): a
// refusal is looked at again every secretLookEvery for secretLookAgain
// before it stands.
const (
	secretLookAgain = 500 * time.Millisecond
	secretLookEvery = 25 * time.Millisecond
)

// secretPrompt checks that session id reads a secret (a hidden line, or a
// password dialog) for a program that may take one, and describes that
// program.
func secretPrompt(ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID) (secretReader, error) {
	deadline := time.Now().Add(secretLookAgain)
	for {
		reader, err := secretPromptNow(svc, owner, id)
		if err == nil || core.CodeOf(err) != core.CodeInvalidArgument || time.Now().After(deadline) {
			return reader, err
		}
		t := time.NewTimer(secretLookEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return secretReader{}, &core.Error{Code: core.CodeCancelled, Op: "secret", Session: id, Err: ctx.Err()}
		case <-t.C:
		}
	}
}

// secretPromptNow is one look of secretPrompt.
func secretPromptNow(svc *core.Service, owner *core.Owner, id core.SessionID) (secretReader, error) {
	const op = "secret"
	if err := svc.SecretPrompt(owner, id); err != nil {
		return secretReader{}, err
	}
	reader, err := describeSecretReader(svc, owner, id)
	if err != nil {
		return secretReader{}, err
	}
	if why := reader.refusal(); why != "" {
		return secretReader{}, &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id,
			Msg: "refused: " + why + "; a secret is typed only for a program that asks for its own use (sudo, ssh, gpg)"}
	}
	return reader, nil
}

// typeSubmission types a person's secret into session id if it still
// reads a hidden line for the program they were shown, tells them what
// became of it, and wipes it.
func typeSubmission(ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID, shown secretReader, sub secretSubmission) error {
	defer clear(sub.secret)
	err := func() error {
		// The person may have taken minutes: type only into the prompt
		// they were shown, never into a shell.
		now, err := secretPrompt(ctx, svc, owner, id)
		if err != nil {
			return err
		}
		if !now.same(shown) {
			return &core.Error{Code: core.CodeInvalidArgument, Op: "secret", Session: id,
				Msg: "another program reads the terminal than the one the user was shown: nothing was typed"}
		}
		return svc.TypeSecret(ctx, owner, id, sub.secret)
	}()
	if err != nil {
		sub.answer <- err.Error()
		return err
	}
	sub.answer <- ""
	return nil
}

// elicitsURL reports whether ss's client can be asked, during a tool
// call, to open a page for its user: it declared URL-mode elicitation
// and speaks a protocol version that lets a server send a request while
// it serves one (later versions return input requests instead).
func elicitsURL(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil && p.Capabilities.Elicitation.URL != nil &&
		p.ProtocolVersion < "2026-07-28"
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
