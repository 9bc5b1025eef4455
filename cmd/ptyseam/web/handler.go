package web

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/ptyseam/ptyseam/core"
)

// Person is who the watch page says is in control of a session it took.
const Person = "a person at the watch page"

// Bounds of one WebSocket.
const (
	// maxMessage bounds one message from the page (keystrokes, pasted
	// text): larger ones end the connection.
	maxMessage = 64 << 10
	// writeTimeout bounds one write to the page.
	writeTimeout = 10 * time.Second
	// stateEvery is how often a viewer's header (status, age) refreshes
	// when nothing else changed.
	stateEvery = 2 * time.Second
)

// Handler serves the watch page under /watch/: the page and its assets,
// the sign-in (form and one-time links), the listing (/watch/api/sessions)
// and one WebSocket per watched session (/watch/ws?id=...). The page
// itself needs a sign-in cookie; every call it makes needs the cookie and
// the tab's key ([Auth]).
func Handler(h *Hub, a *Auth) http.Handler {
	mux := http.NewServeMux()
	sub, _ := fs.Sub(static, "static")
	mux.Handle("GET /watch/static/", http.StripPrefix("/watch/static/", http.FileServerFS(sub)))
	mux.HandleFunc("GET /watch/login", func(w http.ResponseWriter, r *http.Request) {
		serveFile(w, "login.html") // its script spends a one-time link's code
	})
	mux.HandleFunc("POST /watch/login", func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 4096)
		if code := r.PostFormValue("once"); code != "" {
			if !a.useLink(code) {
				http.Error(w, "this one-time link was used already or expired; ask the server for a new one (or sign in with the token)", http.StatusUnauthorized)
				return
			}
		} else if !a.checkToken(r.PostFormValue("token")) {
			http.Error(w, "wrong token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(map[string]string{"key": a.signIn(w, r)})
	})
	mux.HandleFunc("GET /watch/{$}", func(w http.ResponseWriter, r *http.Request) {
		if !a.hasCookie(r) {
			http.Redirect(w, r, "/watch/login", http.StatusSeeOther)
			return
		}
		serveFile(w, "index.html")
	})
	mux.HandleFunc("GET /watch/api/sessions", signed(a, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(map[string]any{"sessions": h.List(), "readOnly": h.opts.ReadOnly, "xterm": HasXterm(), "recording": h.opts.RecordDir != ""})
	}))
	mux.HandleFunc("GET /watch/ws", signed(a, h.serveWS))
	mux.HandleFunc("GET /watch/api/recordings", signed(a, h.listRecordings))
	mux.HandleFunc("GET /watch/recordings/{name}", signed(a, h.serveRecording))
	return securityHeaders(mux)
}

// signed refuses calls without the sign-in cookie and the tab's key.
func signed(a *Auth, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !a.authorized(r) {
			http.Error(w, "sign in first: open /watch/login", http.StatusUnauthorized)
			return
		}
		next(w, r)
	}
}

// securityHeaders forbids framing, inline scripts and foreign origins;
// WebAssembly may be compiled ('wasm-unsafe-eval': asciinema-player's
// terminal emulator is WebAssembly), JavaScript eval may not. The
// referrer goes to the page's own origin only (same-origin): under
// no-referrer a browser sends "Origin: null" on a form's POST, which the
// server's origin check refuses.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// same-origin, not no-referrer: under no-referrer a browser
		// sends "Origin: null" with the sign-in form's POST, which the
		// server's origin check must refuse. Nothing leaves the origin.
		w.Header().Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

func serveFile(w http.ResponseWriter, name string) {
	b, err := fs.ReadFile(static, "static/"+name)
	if err != nil {
		http.Error(w, "missing page "+name, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

// clientMsg is a message from the page.
type clientMsg struct {
	Type string `json:"type"` // "take", "handback", "input"
	Data string `json:"data"`
}

// stateMsg tells the page about the session.
type stateMsg struct {
	Type       string `json:"type"` // "state"
	ID         string `json:"id"`
	Status     string `json:"status"`
	Cols       int    `json:"cols"`
	Rows       int    `json:"rows"`
	LastWait   string `json:"lastWait"`
	Controller string `json:"controller"`
	You        bool   `json:"you"` // this page is in control
	Ended      bool   `json:"ended"`
	ReadOnly   bool   `json:"readOnly"`
	Error      string `json:"error,omitempty"`
}

// serveWS streams one session to the page: its recent output, then live
// output and state changes; it takes keystrokes only while this page is
// in control.
func (h *Hub) serveWS(w http.ResponseWriter, r *http.Request) {
	ws := h.lookup(r.URL.Query().Get("id"))
	if ws == nil {
		http.Error(w, "no such session (it may have been closed)", http.StatusNotFound)
		return
	}
	if !h.acquireViewer() {
		http.Error(w, "too many watch connections are open; close some tabs and retry", http.StatusServiceUnavailable)
		return
	}
	defer h.releaseViewer()
	// Accept refuses a cross-origin handshake (the Origin must be this
	// host) and picks Subprotocol, which the page offers next to its key.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{Subprotocol}})
	if err != nil {
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(maxMessage)
	v := newViewer(h.opts.ViewerQueue)
	ws.mu.Lock()
	hist := append([]byte(nil), ws.hist...)
	ws.subs[v] = struct{}{}
	ws.mu.Unlock()
	defer h.leave(ws, v)

	ctx, cancel := context.WithCancel(h.ctx)
	errMsg := make(chan string, 4)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer cancel()
		h.readLoop(ctx, conn, ws, v, errMsg)
	}()
	_ = h.writeLoop(ctx, conn, ws, v, hist, errMsg)
	cancel()
	conn.CloseNow()
	<-readDone
}

// writeLoop sends the history, then output and state until the viewer
// ends.
func (h *Hub) writeLoop(ctx context.Context, conn *websocket.Conn, ws *watched, v *viewer, hist []byte, errMsg <-chan string) error {
	send := func(typ websocket.MessageType, b []byte) error {
		wctx, cancel := context.WithTimeout(ctx, writeTimeout)
		defer cancel()
		return conn.Write(wctx, typ, b)
	}
	sendState := func(errText string) error {
		st, ok := h.state(ws, v)
		if !ok {
			v.end("the session was closed")
			return nil
		}
		st.Error = errText
		b, _ := json.Marshal(st)
		return send(websocket.MessageText, b)
	}
	if err := sendState(""); err != nil {
		return err
	}
	if len(hist) > 0 {
		if err := send(websocket.MessageBinary, hist); err != nil {
			return err
		}
	}
	tick := time.NewTicker(stateEvery)
	defer tick.Stop()
	for {
		ws.mu.Lock()
		changed := ws.changed
		ws.mu.Unlock()
		select {
		case <-v.wake:
			for _, b := range v.take() {
				if err := send(websocket.MessageBinary, b); err != nil {
					return err
				}
			}
		case <-changed:
			if err := sendState(""); err != nil {
				return err
			}
		case <-tick.C:
			if err := sendState(""); err != nil {
				return err
			}
		case e := <-errMsg:
			if err := sendState(e); err != nil {
				return err
			}
		case <-v.done:
			b, _ := json.Marshal(map[string]string{"type": "end", "reason": v.endReason()})
			_ = send(websocket.MessageText, b)
			return conn.Close(websocket.StatusNormalClosure, "")
		case <-ctx.Done():
			return conn.Close(websocket.StatusGoingAway, "")
		}
	}
}

// readLoop handles the page's messages: take, handback, input.
func (h *Hub) readLoop(ctx context.Context, conn *websocket.Conn, ws *watched, v *viewer, errMsg chan<- string) {
	report := func(s string) {
		select {
		case errMsg <- s:
		default:
		}
	}
	for {
		typ, b, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var m clientMsg
		if typ != websocket.MessageText || json.Unmarshal(b, &m) != nil {
			report("the page sent a message the server does not understand")
			continue
		}
		switch m.Type {
		case "take":
			if h.opts.ReadOnly {
				report("this server's watch page is read-only")
				continue
			}
			c, err := h.svc.TakeOver(ws.owner, ws.id, Person)
			if err != nil {
				report(errText(err))
				continue
			}
			ws.mu.Lock()
			ws.control, ws.holder = c, v
			ws.changedLocked()
			ws.mu.Unlock()
		case "handback":
			h.handBack(ws, v)
		case "input":
			ws.mu.Lock()
			c := ws.control
			mine := ws.holder == v
			ws.mu.Unlock()
			if c == nil || !mine {
				report("take over first to type")
				continue
			}
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			_, err := c.Write(wctx, []byte(m.Data))
			cancel()
			if err != nil {
				report(errText(err))
			}
		default:
			report("unknown message type")
		}
	}
}

// handBack returns control held by v, if it holds it.
func (h *Hub) handBack(ws *watched, v *viewer) {
	ws.mu.Lock()
	c := ws.control
	if c == nil || ws.holder != v {
		ws.mu.Unlock()
		return
	}
	ws.control, ws.holder = nil, nil
	ws.changedLocked()
	ws.mu.Unlock()
	c.HandBack()
}

// leave detaches a viewer; control it held is handed back, so a closed
// tab never keeps the model locked out.
func (h *Hub) leave(ws *watched, v *viewer) {
	h.handBack(ws, v)
	ws.mu.Lock()
	delete(ws.subs, v)
	ws.mu.Unlock()
	v.end("closed")
}

// state describes the session for one viewer; false once it was closed.
func (h *Hub) state(ws *watched, v *viewer) (stateMsg, bool) {
	info, err := h.svc.Info(ws.owner, ws.id)
	if err != nil {
		return stateMsg{}, false
	}
	who, _ := h.svc.Controller(ws.owner, ws.id)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return stateMsg{
		Type: "state", ID: string(ws.id), Status: info.Status.String(), Cols: int(info.Size.Cols), Rows: int(info.Size.Rows),
		LastWait: string(ws.lastWait), Controller: who, You: ws.holder == v && ws.control != nil, Ended: ws.ended, ReadOnly: h.opts.ReadOnly,
	}, true
}

func (h *Hub) acquireViewer() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.viewers >= h.opts.MaxViewers {
		return false
	}
	h.viewers++
	h.wg.Add(1)
	return true
}

func (h *Hub) releaseViewer() {
	h.mu.Lock()
	h.viewers--
	h.mu.Unlock()
	h.wg.Done()
}

// errText is the message of a service error for the page.
func errText(err error) string {
	var e *core.Error
	if errors.As(err, &e) {
		return string(e.Code) + ": " + e.Msg
	}
	return err.Error()
}
