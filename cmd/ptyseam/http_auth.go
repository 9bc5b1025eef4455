package main

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// minTokenLen is the shortest bearer token the server accepts: 32
// characters, 128 bits or more as hex.
const minTokenLen = 32

// requireToken refuses requests without "Authorization: Bearer <token>".
// The scheme is case-insensitive (RFC 9110 §11.1); the token is compared
// in constant time.
func requireToken(token string, next http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		got = strings.TrimSpace(got)
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ptyseam"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkOrigin refuses, with 403, a request whose Origin header names
// another site: a web page the user visits must not drive the server
// through the browser (DNS rebinding, cross-site requests), token or not.
// A request without Origin (not from a browser) passes; so does one from
// the server's own origin: its listen address, or a loopback name with the
// same port.
func checkOrigin(listenAddr string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, listenAddr) {
			http.Error(w, "forbidden: requests from origin "+origin+" are not accepted", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether origin ("http://host:port") is the server at
// listenAddr.
func sameOrigin(origin, listenAddr string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
		return false
	}
	lhost, lport, err := net.SplitHostPort(listenAddr)
	if err != nil {
		return false
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if port != lport {
		return false
	}
	host := u.Hostname()
	return strings.EqualFold(host, lhost) || isLoopback(host) && isLoopback(lhost) || isLoopback(host) && net.ParseIP(lhost).IsUnspecified()
}
