package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
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
	// cookieName names the watch page's sign-in cookie.
	cookieName = "ptyseam_watch"
)

// Auth signs browsers in to the watch page: with the server's token
// (typed into the page's form) or with a one-time link the server prints.
// A signed-in browser holds a random cookie (HttpOnly, SameSite=Strict,
// path /watch/), never the token itself.
type Auth struct {
	token []byte

	mu      sync.Mutex
	links   map[string]time.Time // one-time codes and their expiry
	signins map[string]time.Time // cookies and their expiry
	now     func() time.Time
}

// NewAuth returns an Auth accepting token (empty: only one-time links).
func NewAuth(token string) *Auth {
	return &Auth{token: []byte(token), links: map[string]time.Time{}, signins: map[string]time.Time{}, now: time.Now}
}

// OneTimeLink mints a link that signs one browser in, once, within
// OneTimeLinkLife. base is the server's address ("http://127.0.0.1:8765").
func (a *Auth) OneTimeLink(base string) string {
	code := randomHex(24)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweepLocked()
	evictOldest(a.links, maxLinks-1)
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

// signIn sets a new sign-in cookie on w.
func (a *Auth) signIn(w http.ResponseWriter) {
	id := randomHex(24)
	a.mu.Lock()
	a.sweepLocked()
	evictOldest(a.signins, maxSignedIn-1)
	a.signins[id] = a.now().Add(ViewerLife)
	a.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/watch/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: int(ViewerLife.Seconds())})
}

// signedIn reports whether r carries a valid sign-in cookie.
func (a *Auth) signedIn(r *http.Request) bool {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, ok := a.signins[c.Value]
	return ok && a.now().Before(exp)
}

func (a *Auth) sweepLocked() {
	now := a.now()
	for k, exp := range a.links {
		if !now.Before(exp) {
			delete(a.links, k)
		}
	}
	for k, exp := range a.signins {
		if !now.Before(exp) {
			delete(a.signins, k)
		}
	}
}

// evictOldest removes the entries expiring first until m has at most n.
func evictOldest(m map[string]time.Time, n int) {
	for len(m) > n {
		var oldest string
		var at time.Time
		for k, exp := range m {
			if oldest == "" || exp.Before(at) {
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
