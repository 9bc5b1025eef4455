package portprobe

import (
	"fmt"
	"net/url"
	"reflect"
	"testing"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{"  ➜  Local:   http://localhost:5173/", []string{"http://localhost:5173"}},
		{"Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...", []string{"http://0.0.0.0:8000"}},
		{"listening at http://127.0.0.1:3000/api, see https://vitejs.dev/guide", []string{"http://127.0.0.1:3000/api"}},
		{"ws://[::1]:9229/abc and http://[::]:8080.", []string{"ws://[::1]:9229/abc", "http://[::]:8080"}},
		{"HTTP://LOCALHOST:4000 twice http://localhost:4000/", []string{"http://localhost:4000"}},
		{"app at http://myapp.localhost", []string{"http://myapp.localhost"}},
		{"remote https://example.com:8443/x", []string{"https://example.com:8443/x"}},
		{"docs https://go.dev/doc/ and ftp://localhost:21", nil},
		{"http://user:pw@localhost:1/", nil},
		{"no urls here", nil},
		{"Network: http://192.168.1.5:5173/", []string{"http://192.168.1.5:5173"}},
	}
	for _, c := range cases {
		if got := Detect(c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Detect(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestSetBoundAndOrder(t *testing.T) {
	s := NewSet(3)
	if !s.Scan("http://localhost:1/") || s.Scan("again http://localhost:1") {
		t.Fatal("first scan should add, the duplicate should not")
	}
	for i := 2; i <= 5; i++ {
		s.Scan(fmt.Sprintf("http://localhost:%d", i))
	}
	want := []string{"http://localhost:1", "http://localhost:2", "http://localhost:3"}
	if got := s.URLs(); !reflect.DeepEqual(got, want) {
		t.Fatalf("URLs = %q, want %q", got, want)
	}
	var zero Set
	zero.Scan("http://localhost:9")
	if got := zero.URLs(); len(got) != 1 {
		t.Fatalf("zero Set kept %q", got)
	}
}

func FuzzDetect(f *testing.F) {
	for _, s := range []string{"http://localhost:5173/", "(http://0.0.0.0:8000/)", "ws://[::1]:1]", "http://[", "https://a:b@c:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, u := range Detect(line) {
			p, err := url.Parse(u)
			if err != nil || p.Host == "" {
				t.Fatalf("Detect(%q) returned %q, not a URL with a host (%v)", line, u, err)
			}
			if again := Detect(u); len(again) != 1 || again[0] != u {
				t.Fatalf("Detect(%q) = %q, not stable", u, again)
			}
		}
	})
}
