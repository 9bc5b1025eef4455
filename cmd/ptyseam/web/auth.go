package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Bounds of an [Auth].
const (
	// OneTimeLinkLife is how long a one-time link stays valid.
	OneTimeLinkLife = 10 * time.Minute
	// maxLinks bounds the one-time links outstanding; the oldest goes.
	maxLinks = 16
	// ViewerLife is how long a browser stays signed in.
	ViewerLife = 12 * time.Hour
	// maxSignedIn bounds the browsers signed in at once; the oldest is
	// signed out.
	maxSignedIn = 64
	// maxTabs bounds the tabs of one browser signed in at once (the keys
	// of one cookie); the oldest is signed out.
	maxTabs = 16
	// cookieName names the watch page's sign-in cookie.
	cookieName = "ptyseam_watch"
)

// The tab's key travels with every call of a signed-in page: in the
// KeyHeader of its API requests, and, since a browser's WebSocket cannot
// carry headers, as a subprotocol KeyProtocolPrefix+key offered next to
// Subprotocol, the one the server picks.
const (
	// KeyHeader carries the tab's key on API requests.
	KeyHeader = "X-Ptyseam-Watch-Key"
	// Subprotocol is the watch page's WebSocket subprotocol.
	Subprotocol = "ptyseam.watch"
	// KeyProtocolPrefix starts the subprotocol that carries the key on a
	// WebSocket handshake.
	KeyProtocolPrefix = "ptyseam.key."
)

// Auth signs browsers in to the watch page: with the server's token
// (typed into the page's form) or with a one-time link the server prints.
// A sign-in gives the browser two random secrets, never the token itself:
// a cookie (HttpOnly, SameSite=Strict, path /watch/) and a key that the
// page keeps in its tab's sessionStorage. Every call but the page itself
// needs both. A browser sends a host's cookies to every port of it, so a
// page on another port of the same host receives the cookie; the key stays
// with the origin (scheme, host and port) that signed in.
type Auth struct {
	token []byte

	mu      sync.Mutex
	links   map[string]time.Time // one-time codes and their expiry
	signins map[string]signin    // by cookie
	now     func() time.Time
}

// signin is one browser's sign-in: the keys of its tabs, oldest first.
type signin struct {
	keys []string
	exp  time.Time
}

// NewAuth returns an Auth accepting token (empty: only one-time links).
func NewAuth(token string) *Auth {
	return &Auth{token: []byte(token), links: map[string]time.Time{}, signins: map[string]signin{}, now: time.Now}
}

// OneTimeLink mints a link that signs one browser in, once, within
// OneTimeLinkLife. base is the server's address ("http://127.0.0.1:8765").
// Opening the link shows the sign-in page, whose script spends the code:
// a link preview that only fetches it spends nothing.
func (a *Auth) OneTimeLink(base string) string {
	code := randomHex(24)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweepLocked()
	evictOldest(a.links, maxLinks-1, func(exp time.Time) time.Time { return exp })
	a.links[code] = a.now().Add(OneTimeLinkLife)
	return base + "/watch/login?once=" + code
}

// useLink consumes a one-time code.
func (a *Auth) useLink(code string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, ok := a.links[code]
	delete(a.links, code)
	return ok && a.now().Before(exp)
}

// checkToken compares a typed token with the server's, in constant time.
func (a *Auth) checkToken(t string) bool {
	return len(a.token) > 0 && subtle.ConstantTimeCompare([]byte(t), a.token) == 1
}

// signIn returns a new key for the tab that sent r. A browser already
// signed in keeps its cookie (its other tabs stay signed in); another
// gets a new cookie, set on w.
func (a *Auth) signIn(w http.ResponseWriter, r *http.Request) (key string) {
	key = randomHex(24)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweepLocked()
	if c, err := r.Cookie(cookieName); err == nil {
		if s, ok := a.signins[c.Value]; ok {
			s.keys = append(s.keys, key)
			if len(s.keys) > maxTabs {
				s.keys = s.keys[len(s.keys)-maxTabs:]
			}
			a.signins[c.Value] = s
			return key
		}
	}
	id := randomHex(24)
	evictOldest(a.signins, maxSignedIn-1, func(s signin) time.Time { return s.exp })
	a.signins[id] = signin{keys: []string{key}, exp: a.now().Add(ViewerLife)}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/watch/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: int(ViewerLife.Seconds())})
	return key
}

// lookup returns the live sign-in of r's cookie (a copy).
func (a *Auth) lookup(r *http.Request) (signin, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return signin{}, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.signins[c.Value]
	s.keys = slices.Clone(s.keys)
	return s, ok && a.now().Before(s.exp)
}

// hasCookie reports whether r carries a live sign-in cookie: enough for
// the page itself (static, it holds nothing), never for a call.
func (a *Auth) hasCookie(r *http.Request) bool {
	_, ok := a.lookup(r)
	return ok
}

// authorized reports whether r carries a live sign-in cookie and, in its
// KeyHeader or its WebSocket subprotocols, the key that goes with it.
func (a *Auth) authorized(r *http.Request) bool {
	s, ok := a.lookup(r)
	if !ok {
		return false
	}
	got := r.Header.Get(KeyHeader)
	if got == "" {
		got = keyProtocol(r)
	}
	match := 0
	for _, k := range s.keys {
		match |= subtle.ConstantTimeCompare([]byte(got), []byte(k))
	}
	return got != "" && match == 1
}

// keyProtocol returns the key offered as a WebSocket subprotocol, if any.
func keyProtocol(r *http.Request) string {
	for _, h := range r.Header.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(h, ",") {
			if k, ok := strings.CutPrefix(strings.TrimSpace(p), KeyProtocolPrefix); ok {
				return k
			}
		}
	}
	return ""
}

func (a *Auth) sweepLocked() {
	now := a.now()
	for k, exp := range a.links {
		if !now.Before(exp) {
			delete(a.links, k)
		}
	}
	for k, s := range a.signins {
		if !now.Before(s.exp) {
			delete(a.signins, k)
		}
	}
}

// evictOldest removes the entries expiring first until m has at most n.
func evictOldest[V any](m map[string]V, n int, expiry func(V) time.Time) {
	for len(m) > n {
		var oldest string
		var at time.Time
		for k, v := range m {
			if exp := expiry(v); oldest == "" || exp.Before(at) {
				oldest, at = k, exp
			}
		}
		delete(m, oldest)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
