package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRemoteHosts(t *testing.T) {
	good := `{"hosts": {"box-1": {"host": "10.0.0.5", "user": "deploy", "identityFiles": ["/k"], "description": "staging"}}}`
	f, err := parseRemoteHosts([]byte(good))
	hosts := f.Hosts
	if err != nil || hosts["box-1"].Host != "10.0.0.5" || hosts["box-1"].IdentityFiles[0] != "/k" {
		t.Fatalf("%+v %v", hosts, err)
	}
	for name, c := range map[string]struct{ in, want string }{
		"unknown field":  {`{"hosts": {"a": {"host": "h", "user": "u", "agent": true, "password": "x"}}}`, "unknown field"},
		"no credentials": {`{"hosts": {"a": {"host": "h", "user": "u"}}}`, "no credentials"},
		"bad name":       {`{"hosts": {"a b": {"host": "h", "user": "u", "agent": true}}}`, "host name"},
		"no host":        {`{"hosts": {"a": {"user": "u", "agent": true}}}`, "host is empty"},
		"no user":        {`{"hosts": {"a": {"host": "h", "agent": true}}}`, "user is empty"},
		"bad port":       {`{"hosts": {"a": {"host": "h", "user": "u", "port": 70000, "agent": true}}}`, "out of range"},
		"empty":          {`{"hosts": {}}`, "no hosts"},
		"trailing":       {`{"hosts": {"a": {"host": "h", "user": "u", "agent": true}}} {}`, "trailing"},
		"not json":       {`hosts:`, "invalid character"},
		"relative agent": {`{"agentBinary": "bin/ptyseam-agent", "hosts": {"a": {"host": "h", "user": "u", "agent": true}}}`, "absolute path"},
	} {
		if _, err := parseRemoteHosts([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
}

func FuzzParseRemoteHosts(f *testing.F) {
	f.Add([]byte(`{"hosts": {"box": {"host": "h", "user": "u", "agent": true}}}`))
	f.Add([]byte(`{"hosts": {"a": {"host": "h", "user": "u", "port": -1, "identityFiles": ["x"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := parseRemoteHosts(data)
		if err != nil {
			return
		}
		hosts := file.Hosts
		if a := file.AgentBinary; a != "" && a != "self" && !filepath.IsAbs(a) {
			t.Fatalf("accepted agentBinary %q", a)
		}
		if len(hosts) == 0 || len(hosts) > maxRemoteHosts {
			t.Fatalf("%d hosts accepted", len(hosts))
		}
		for name, h := range hosts {
			if !remoteNameRx.MatchString(name) || h.Host == "" || h.User == "" || h.Port < 0 || h.Port > 65535 {
				t.Fatalf("accepted %q: %+v", name, h)
			}
			if len(h.IdentityFiles) == 0 && h.PasswordFile == "" && !h.Agent {
				t.Fatalf("accepted %q without credentials", name)
			}
		}
	})
}
