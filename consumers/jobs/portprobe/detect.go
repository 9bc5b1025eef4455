package portprobe

import (
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// urlPattern finds candidate URLs; Detect then decides which name a
// service.
var urlPattern = regexp.MustCompile(`(?i)\b(?:https?|wss?)://[^\s<>"'` + "`" + `]+`)

// Detect returns the service addresses in one line of cleaned output, in
// order of appearance and without duplicates. A URL counts as a service
// address when its scheme is http, https, ws or wss and its host is local
// or a literal address (localhost, *.localhost, 127.0.0.1, 0.0.0.0, [::],
// any IP) or it names an explicit port; so "http://localhost:5173/" and
// "http://0.0.0.0:8000/" are found, and a documentation link such as
// "https://vitejs.dev/guide" is not. Trailing punctuation is removed and an
// empty path ("/") is dropped, so "http://localhost:5173/." becomes
// "http://localhost:5173".
func Detect(line string) []string {
	if !strings.Contains(line, "://") {
		return nil
	}
	var out []string
	for _, m := range urlPattern.FindAllString(line, -1) {
		u, ok := normalize(m)
		if !ok {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == u
		}
		if !dup {
			out = append(out, u)
		}
	}
	return out
}

func normalize(raw string) (string, bool) {
	raw = strings.TrimRight(raw, ".,;:!?)]}'\"")
	// A closing bracket belongs to an IPv6 host ("http://[::1]"), so give
	// it back when the trim took it.
	if strings.Count(raw, "[") > strings.Count(raw, "]") {
		raw += "]"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil {
		return "", false
	}
	host := u.Hostname()
	if host == "" || !serviceHost(host, u.Port()) {
		return "", false
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	if u.Path == "/" && u.RawQuery == "" && u.Fragment == "" {
		u.Path = ""
	}
	return u.String(), true
}

func serviceHost(host, port string) bool {
	h := strings.ToLower(host)
	switch {
	case h == "localhost", strings.HasSuffix(h, ".localhost"):
		return true
	case net.ParseIP(h) != nil:
		return true
	}
	return port != ""
}

// DefaultMaxServices bounds how many addresses a [Set] keeps.
const DefaultMaxServices = 16

// Set collects the distinct service addresses of one program's output,
// oldest first, up to a bound. It is safe for concurrent use; the zero value
// keeps up to DefaultMaxServices addresses.
type Set struct {
	mu   sync.Mutex
	max  int
	urls []string
}

// NewSet returns a Set that keeps at most max addresses (<= 0: the
// default).
func NewSet(max int) *Set { return &Set{max: max} }

// Scan adds the addresses found in line and reports whether any was new.
func (s *Set) Scan(line string) bool {
	found := Detect(line)
	if len(found) == 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	limit := s.max
	if limit <= 0 {
		limit = DefaultMaxServices
	}
	added := false
	for _, u := range found {
		if len(s.urls) >= limit {
			break
		}
		known := false
		for _, o := range s.urls {
			known = known || o == u
		}
		if !known {
			s.urls = append(s.urls, u)
			added = true
		}
	}
	return added
}

// URLs returns a copy of the addresses seen so far.
func (s *Set) URLs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.urls...)
}
