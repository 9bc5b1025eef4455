package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testToken = "0123456789abcdef0123456789abcdef"

func TestBearerTokenIsRequired(t *testing.T) {
	h := requireToken(testToken, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	for header, want := range map[string]int{
		"": 401, "Bearer wrong": 401, "Basic " + testToken: 401, "Bearer": 401, "Bearer " + testToken + "x": 401,
		"Bearer " + testToken: 204, "bearer " + testToken: 204, "BEARER " + testToken: 204, "Bearer  " + testToken + " ": 204,
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/", nil)
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Authorization %q: status %d, want %d", header, rec.Code, want)
		}
	}
}

func TestForeignOriginIsForbidden(t *testing.T) {
	h := checkOrigin("127.0.0.1:8765", requireToken(testToken, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })))
	for _, c := range []struct {
		origin string
		token  bool
		want   int
	}{
		{"", true, 204},
		{"http://127.0.0.1:8765", true, 204},
		{"http://localhost:8765", true, 204},
		{"http://[::1]:8765", true, 204},
		{"https://evil.example", true, 403},
		{"https://evil.example", false, 403},
		{"http://localhost:9999", true, 403},
		{"http://127.0.0.1", true, 403},
		{"http://attacker.test:8765", true, 403},
		{"null", true, 403},
		{"file://", true, 403},
		{"http://127.0.0.1:8765/path", true, 403},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/", nil)
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.token {
			req.Header.Set("Authorization", "Bearer "+testToken)
		}
		h.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("Origin %q (token %v): status %d, want %d", c.origin, c.token, rec.Code, c.want)
		}
	}
	if !sameOrigin("http://10.1.2.3:8765", "10.1.2.3:8765") || sameOrigin("http://10.1.2.4:8765", "10.1.2.3:8765") {
		t.Error("a remote listen address's own origin must pass and another host must not")
	}
}

func TestTokenRules(t *testing.T) {
	t.Setenv(tokenEnv, "")
	if _, err := parseConfig([]string{"--token", "short-token"}, io.Discard); err == nil || !strings.Contains(err.Error(), "at least 32") {
		t.Errorf("a short --token was accepted: %v", err)
	}
	t.Setenv(tokenEnv, "short")
	if _, err := parseConfig(nil, io.Discard); err == nil {
		t.Error("a short $PTYSEAM_TOKEN was accepted")
	}
	t.Setenv(tokenEnv, "")
	dir := t.TempDir()
	good := filepath.Join(dir, "token")
	if err := os.WriteFile(good, []byte(testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseConfig([]string{"--token-file", good}, io.Discard)
	if err != nil || cfg.Token != testToken {
		t.Fatalf("--token-file: %q, %v", cfg.Token, err)
	}
	open := filepath.Join(dir, "open")
	if err := os.WriteFile(open, []byte(testToken), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--token-file", open},
		{"--token-file", filepath.Join(dir, "missing")},
		{"--token-file", good, "--token", testToken},
	} {
		if _, err := parseConfig(args, io.Discard); err == nil {
			t.Errorf("parseConfig(%q) was accepted", args)
		}
	}
	if len(randomToken()) < minTokenLen {
		t.Error("the generated token is too short")
	}
}
