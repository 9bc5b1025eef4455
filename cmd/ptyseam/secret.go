package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// toolSecret asks the person behind the MCP client for a secret and types
// it into a terminal, without the model ever seeing it.
const toolSecret = "pty_secret"

// Bounds of pty_secret.
const (
	maxSecretBytes     = 4096
	maxSecretMessage   = 300
	defaultSecretWait  = 5 * time.Minute
	secretPageDeadline = 10 * time.Second // reading one request of the page
)

// Outcomes of pty_secret: all the model learns.
const (
	secretEntered = "entered"
	secretRefused = "refused"
	secretTimeout = "timed_out"
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
// line (echo off: a password prompt), the tool asks the client, through
// MCP elicitation in URL mode, to send its user to a one-time page on
// this host; what the person types there goes straight into the terminal,
// followed by Enter. It is never logged and never in a result: the model
// is told only entered, refused or timed_out.
func secretTool(svc *core.Service, maxWait time.Duration) tools.Tool {
	return tools.Tool{
		Definition: tools.Definition{
			Name:  toolSecret,
			Title: "Ask the user for a password",
			Description: "When a session waits for a password or passphrase (pty_send settled on stdin_read and the prompt " +
				"hides what is typed), ask the user to type it on a page their MCP client opens; it goes straight into the " +
				"terminal with Enter and never reaches you. message says what is asked (\"sudo password for deploy\"). Returns " +
				"outcome: entered, refused or timed_out; then pty_tail or pty_wait for what follows. Never ask the user to " +
				"tell you a secret.",
			InputSchema: tools.MustInferSchema[secretArgs](tools.NonEmpty("id"), tools.Length("message", 1, maxSecretMessage),
				tools.Range("timeoutMs", 1, maxWait.Milliseconds())),
			OutputSchema: tools.MustInferSchema[secretResult](tools.Enum("outcome", secretEntered, secretRefused, secretTimeout)),
		},
		Handler: tools.Typed(func(ctx context.Context, owner *core.Owner, a secretArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
			wait := min(defaultSecretWait, maxWait)
			if a.TimeoutMs > 0 {
				wait = time.Duration(a.TimeoutMs) * time.Millisecond
			}
			outcome, err := askSecret(ctx, svc, owner, core.SessionID(a.ID), a.Message, wait)
			if err != nil {
				return tools.Result{}, tools.AsToolError(err, secretHints[core.CodeOf(err)])
			}
			text := map[string]string{
				secretEntered: "[the user entered the secret into " + a.ID + "; read what follows with pty_tail or pty_wait]",
				secretRefused: "[the user declined: nothing was typed into " + a.ID + "]",
				secretTimeout: "[the user entered nothing in time: nothing was typed into " + a.ID + "]",
			}[outcome]
			return tools.Result{Structured: secretResult{Outcome: outcome}, Text: text}, nil
		}),
	}
}

var secretHints = map[core.Code]string{
	core.CodeUnsupported:     "Tell the user that this client cannot collect a secret for the terminal; do not ask them to tell it to you.",
	core.CodeInvalidArgument: "Only a prompt that hides what is typed is a secret prompt: answer other questions with pty_send.",
	core.CodeNoSession:       "Call pty_list to see your open sessions.",
}

// askSecret runs one secret request: checks, the page, the elicitation,
// the write.
func askSecret(ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID, message string, wait time.Duration) (string, error) {
	const op = "secret"
	switch {
	case message == "" || len(message) > maxSecretMessage:
		return "", &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id, Msg: fmt.Sprintf("message: must be 1 to %d bytes", maxSecretMessage)}
	case wait <= 0:
		return "", &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id, Msg: "timeoutMs: must be positive"}
	}
	off, known, err := svc.EchoOff(owner, id)
	if err != nil {
		return "", err
	}
	if !known {
		return "", &core.Error{Code: core.CodeUnsupported, Op: op, Session: id, Msg: "this terminal cannot tell whether it hides what is typed"}
	}
	if !off {
		return "", &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id, Msg: "the terminal shows what is typed (echo is on): it is not reading a secret"}
	}
	ss := mcpSessionFrom(ctx)
	if ss == nil || ss.InitializeParams() == nil || ss.InitializeParams().Capabilities == nil ||
		ss.InitializeParams().Capabilities.Elicitation == nil || ss.InitializeParams().Capabilities.Elicitation.URL == nil {
		return "", &core.Error{Code: core.CodeUnsupported, Op: op, Session: id,
			Msg: "this MCP client does not support URL-mode elicitation, so the user cannot be asked for the secret through it"}
	}
	page, err := openSecretPage(message)
	if err != nil {
		return "", err
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
		case secret := <-page.secrets:
			// The person may have taken minutes: type only into a prompt
			// that still hides what is typed, never into a shell.
			if off, known, err := svc.EchoOff(owner, id); err != nil || !known || !off {
				clear(secret)
				if err != nil {
					return "", err
				}
				return "", &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id,
					Msg: "the secret prompt went away before the user answered (echo is on again): nothing was typed"}
			}
			_, err := svc.Write(ctx, owner, id, append(secret, '\r'))
			clear(secret)
			if err != nil {
				return "", err
			}
			_ = ss.NotifyElicitationComplete(context.WithoutCancel(ctx), &mcp.ElicitationCompleteParams{ElicitationID: elicitID})
			return secretEntered, nil
		case action := <-answered:
			if action != "accept" { // decline, cancel, or the client failed
				return secretRefused, nil
			}
			answered = nil // the user agreed to open the page: wait for it
		case <-timer.C:
			return secretTimeout, nil
		case <-ctx.Done():
			return "", &core.Error{Code: core.CodeCancelled, Op: op, Session: id, Err: ctx.Err()}
		}
	}
}

// secretPage is a one-time page on loopback: a form whose one submission
// is delivered on secrets, after which the page is gone.
type secretPage struct {
	url     string
	secrets chan []byte
	srv     *http.Server
	done    chan struct{}
}

var secretForm = template.Must(template.New("secret").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ptyseam: a secret for the terminal</title>
<meta name="referrer" content="no-referrer"></head>
<body style="font-family: sans-serif; max-width: 36em; margin: 3em auto">
<h1>A terminal asks for a secret</h1>
<p id="message">{{.}}</p>
<p>What you type goes straight into the terminal, followed by Enter. The assistant does not see it, and it is not logged.</p>
<form method="post"><input id="secret" name="secret" type="password" autocomplete="off" autofocus required>
<button id="send" type="submit">Send to the terminal</button></form>
</body></html>`))

// openSecretPage serves a fresh page on 127.0.0.1 under an unguessable
// path.
func openSecretPage(message string) (*secretPage, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	token := randomHex(32)
	p := &secretPage{secrets: make(chan []byte, 1), done: make(chan struct{})}
	p.url = "http://" + ln.Addr().String() + "/secret/" + token
	used := false
	mux := http.NewServeMux()
	mux.HandleFunc("/secret/"+token, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if used {
			http.Error(w, "this page was used already", http.StatusGone)
			return
		}
		switch r.Method {
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_ = secretForm.Execute(w, message)
		case http.MethodPost:
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 3*maxSecretBytes+16))
			if err != nil {
				http.Error(w, "too long", http.StatusRequestEntityTooLarge)
				return
			}
			form, err := url.ParseQuery(string(body))
			clear(body)
			secret := []byte(form.Get("secret"))
			if err != nil || len(secret) == 0 || len(secret) > maxSecretBytes {
				http.Error(w, fmt.Sprintf("the secret must be 1 to %d bytes", maxSecretBytes), http.StatusBadRequest)
				return
			}
			used = true
			p.secrets <- secret
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, `<!doctype html><html><body><p id="done">Sent to the terminal. You can close this page.</p></body></html>`)
		default:
			http.Error(w, "", http.StatusMethodNotAllowed)
		}
	})
	// One request at a time: used is read and set without a race.
	var lock = make(chan struct{}, 1)
	p.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			lock <- struct{}{}
			defer func() { <-lock }()
			mux.ServeHTTP(w, r)
		}),
		ReadTimeout: secretPageDeadline,
		ErrorLog:    log.New(io.Discard, "", 0), // nothing about a request is logged
	}
	go func() {
		defer close(p.done)
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// close stops the page and waits for its server. A request being served
// (the submission whose secret was just typed) gets its answer first,
// within secretPageDeadline; then every connection is closed.
func (p *secretPage) close() {
	ctx, cancel := context.WithTimeout(context.Background(), secretPageDeadline)
	defer cancel()
	_ = p.srv.Shutdown(ctx)
	_ = p.srv.Close()
	<-p.done
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
