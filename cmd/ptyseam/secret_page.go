package main

import (
	"context"
	"fmt"
	"html/template"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// secretPageDeadline bounds reading one request of the page, and how long
// a submission waits to learn whether its secret was typed.
const secretPageDeadline = 10 * time.Second

// secretPage is a one-time page on loopback: a form whose one submission
// is delivered on submissions, after which the page is gone.
type secretPage struct {
	url         string
	submissions chan secretSubmission
	srv         *http.Server
	done        chan struct{}
}

// secretSubmission is the secret a person sent; answer tells them what
// became of it ("" when it was typed, else why not).
type secretSubmission struct {
	secret []byte
	answer chan<- string
}

// secretPageData is what the page shows.
type secretPageData struct {
	Message string
	Reader  secretReader
}

var secretForm = template.Must(template.New("secret").Funcs(template.FuncMap{"argv": quoteArgv}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ptyseam: a secret for the terminal</title>
<meta name="referrer" content="no-referrer"></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>A terminal asks for a secret</h1>
<p>The assistant says: <q id="message">{{.Message}}</q></p>
<p>Terminal session <code id="session">{{.Reader.Session}}</code>{{with .Reader.Name}} ({{.}}){{end}}, started as <code id="command">{{.Reader.Command}}</code>.</p>
<p>The program that will read what you type:</p>
<ul id="reader">{{range .Reader.Programs}}<li><code>{{argv .Argv}}</code> (executable <code>{{.Exe}}</code>, pid {{.PID}})</li>{{end}}</ul>
<p><strong>Send the secret only if this is the program you expect to ask for it</strong> (such as sudo, ssh or gpg).
A program the assistant wrote could print what you type where the assistant reads it; ptyseam hides the secret's
exact text in everything the session shows afterwards, but not a transformed copy.</p>
<p>What you type goes straight into the terminal, followed by Enter. It is not logged.</p>
<form method="post"><input id="secret" name="secret" type="password" autocomplete="off" autofocus required>
<button id="send" type="submit">Send to the terminal</button></form>
</body></html>`))

var secretAnswer = template.Must(template.New("answer").Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ptyseam</title></head><body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
{{if .}}<p id="refused">Nothing was typed into the terminal: {{.}}</p>{{else}}<p id="done">Sent to the terminal. You can close this page.</p>{{end}}
</body></html>`))

// openSecretPage serves a fresh page on 127.0.0.1 under an unguessable
// path.
func openSecretPage(data secretPageData) (*secretPage, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	token := randomHex(32)
	p := &secretPage{submissions: make(chan secretSubmission, 1), done: make(chan struct{})}
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
			_ = secretForm.Execute(w, data)
		case http.MethodPost:
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 3*core.MaxSecretBytes+16))
			if err != nil {
				http.Error(w, "too long", http.StatusRequestEntityTooLarge)
				return
			}
			form, err := url.ParseQuery(string(body))
			clear(body)
			secret := []byte(form.Get("secret"))
			if err != nil || len(secret) == 0 || len(secret) > core.MaxSecretBytes {
				http.Error(w, fmt.Sprintf("the secret must be 1 to %d bytes", core.MaxSecretBytes), http.StatusBadRequest)
				return
			}
			used = true
			answer := make(chan string, 1)
			p.submissions <- secretSubmission{secret: secret, answer: answer}
			why := "ptyseam did not answer in time; look at the terminal before trying again"
			select {
			case why = <-answer:
			case <-time.After(secretPageDeadline):
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_ = secretAnswer.Execute(w, why)
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
