package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshagent"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	remotepkg "github.com/ptyseam/ptyseam/remote"
)

// remoteHostsFile is the deployer's list of remote hosts pty_open may open
// a shell on (--remote-hosts). The model names a host; the credentials
// stay here. Example:
//
//	{"hosts": {"staging": {
//	    "description": "the staging web server",
//	    "host": "10.0.0.5", "port": 22, "user": "deploy",
//	    "identityFiles": ["/etc/ptyseam/id_ed25519"],
//	    "knownHostsFiles": ["/etc/ptyseam/known_hosts"]},
//	  "db": {"sshConfigAlias": "db-prod"}}}
type remoteHostsFile struct {
	Hosts map[string]remoteHost `json:"hosts"`
	// AgentBinary is the agent uploaded to hosts with ptyseamAgent: ""
	// or "self" for this binary, or the absolute path of another, such as
	// the slim ptyseam-agent (remote/cmd/ptyseam-agent), a fifteenth of
	// this binary's size. It must be built for the hosts' OS and
	// architecture.
	AgentBinary string `json:"agentBinary"`
}

// remoteHost is one configured host.
type remoteHost struct {
	// Description is shown to the model (never a secret).
	Description string `json:"description"`
	// SSHConfigAlias takes host, user, port, identity files and known
	// hosts files from the OpenSSH client's configuration for this alias
	// (`ssh -G [-F SSHConfigFile] ALIAS`); fields set here override them.
	SSHConfigAlias string `json:"sshConfigAlias"`
	// SSHConfigFile is the ssh configuration to read (default ssh's own:
	// ~/.ssh/config and /etc/ssh/ssh_config).
	SSHConfigFile string `json:"sshConfigFile"`
	Host          string `json:"host"`
	Port          int    `json:"port"`
	User          string `json:"user"`
	// IdentityFiles are unencrypted private keys.
	IdentityFiles []string `json:"identityFiles"`
	// PasswordFile holds the password (its first line).
	PasswordFile string `json:"passwordFile"`
	// Agent offers the keys of the ssh agent at $SSH_AUTH_SOCK.
	Agent bool `json:"agent"`
	// KnownHostsFiles are checked strictly (default ~/.ssh/known_hosts).
	KnownHostsFiles []string `json:"knownHostsFiles"`
	// Shell is the remote login shell: "bash" (the default) gets the
	// prompt marker so sends settle on its prompt; anything else settles
	// on silence.
	Shell string `json:"shell"`
	// PtyseamAgent runs the host's shells through `ptyseam agent` there
	// (the file's agentBinary, by default this binary, uploaded on first
	// use to the host's ~/.cache/ptyseam and checked by SHA-256; the host
	// must be of its OS and architecture): sends then also settle on stdin_read, and closing a
	// session ends its whole process tree there (docs/remote.md).
	PtyseamAgent bool `json:"ptyseamAgent"`
}

// agentBackendType is the backend type of remote hosts served through the
// ptyseam agent.
const agentBackendType = "ssh-agent"

// agentBinary is the local ptyseam binary uploaded as the agent: this one.
var agentBinary = os.Executable

// Bounds of the hosts file.
const (
	maxRemoteHostsBytes = 1 << 20
	maxRemoteHosts      = 256
)

var remoteNameRx = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// parseRemoteHosts decodes and checks a hosts file. It reads no other file.
func parseRemoteHosts(data []byte) (remoteHostsFile, error) {
	var f remoteHostsFile
	if err := decodeTargetsFile(data, &f); err != nil {
		return f, err
	}
	switch {
	case len(f.Hosts) == 0:
		return f, errors.New(`no hosts: want {"hosts": {"NAME": {"host": ..., "user": ..., ...}}}`)
	case len(f.Hosts) > maxRemoteHosts:
		return f, fmt.Errorf("%d hosts: at most %d", len(f.Hosts), maxRemoteHosts)
	case f.AgentBinary != "" && f.AgentBinary != "self" && !filepath.IsAbs(f.AgentBinary):
		return f, errors.New(`agentBinary is "self" or an absolute path`)
	}
	for name, h := range f.Hosts {
		switch {
		case !remoteNameRx.MatchString(name):
			return f, fmt.Errorf("host name %q: use letters, digits, '.', '_' and '-' (at most 64)", name)
		case h.SSHConfigAlias != "" && !remoteNameRx.MatchString(h.SSHConfigAlias):
			return f, fmt.Errorf("%s: sshConfigAlias %q: use letters, digits, '.', '_' and '-'", name, h.SSHConfigAlias)
		case (h.Host == "" && h.SSHConfigAlias == "") || strings.ContainsAny(h.Host, " \t\r\n\x00"):
			return f, fmt.Errorf("%s: host is empty or has spaces", name)
		case (h.User == "" && h.SSHConfigAlias == "") || strings.ContainsAny(h.User, " \t\r\n\x00"):
			return f, fmt.Errorf("%s: user is empty or has spaces", name)
		case h.Port < 0 || h.Port > 65535:
			return f, fmt.Errorf("%s: port %d out of range", name, h.Port)
		case len(h.IdentityFiles) == 0 && h.PasswordFile == "" && !h.Agent && h.SSHConfigAlias == "":
			return f, fmt.Errorf("%s: no credentials: set identityFiles, passwordFile or agent", name)
		case len(h.Description) > 200 || strings.ContainsAny(h.Description, "\x00\r\n"):
			return f, fmt.Errorf("%s: description: one line of at most 200 bytes", name)
		}
	}
	return f, nil
}

// remoteTargets reads the hosts file (if configured), registers the ssh
// backend on svc and returns the facade's targets, and drop, which ends
// every connection to a far side's agent at once (their sessions end as
// lost; each agent closes what it started when its stream ends): for a
// shutdown that far sides do not answer in time.
func remoteTargets(cfg config, svc *core.Service, log *slog.Logger) (targets map[string]ptysession.Target, drop func(), err error) {
	targets, agents, err := remoteHostTargets(cfg, svc, log)
	drop = func() {}
	if agents != nil {
		drop = func() { _ = agents.Close() }
	}
	return targets, drop, err
}

// remoteHostTargets is remoteTargets returning the agents' dialer (nil
// when no host runs through the agent).
func remoteHostTargets(cfg config, svc *core.Service, log *slog.Logger) (map[string]ptysession.Target, *sshagent.Dialer, error) {
	if cfg.RemoteHosts == "" {
		return nil, nil, nil
	}
	file, err := readTargetsFile("--remote-hosts", cfg.RemoteHosts, parseRemoteHosts)
	if err != nil {
		return nil, nil, err
	}
	hosts := file.Hosts
	targets := make(map[string]ptysession.Target, len(hosts))
	sshBackend := sshpkg.NewBackend(sshpkg.BackendOptions{Logger: log})
	var agents *sshagent.Dialer
	for name, h := range hosts {
		if h.SSHConfigAlias != "" {
			if h, err = withSSHConfig(h); err != nil {
				return nil, nil, fmt.Errorf("--remote-hosts: %s: %w", name, err)
			}
		}
		t := &sshpkg.Target{Host: h.Host, Port: h.Port, User: h.User, DialTimeout: 15 * time.Second,
			Auth:     sshpkg.Auth{KeyFiles: h.IdentityFiles, Agent: h.Agent},
			HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: h.KnownHostsFiles}}
		if h.PasswordFile != "" {
			pw, err := os.ReadFile(h.PasswordFile)
			if err != nil {
				return nil, nil, fmt.Errorf("--remote-hosts: %s: password file: %w", name, err)
			}
			line, _, _ := strings.Cut(string(pw), "\n")
			t.Auth.Password = strings.TrimSuffix(line, "\r")
		}
		for _, f := range h.IdentityFiles {
			if _, err := os.Stat(f); err != nil {
				return nil, nil, fmt.Errorf("--remote-hosts: %s: identity file: %w", name, err)
			}
		}
		targets[name] = ptysession.Target{Backend: sshpkg.Type, Options: t, Description: h.Description,
			PromptMarker: h.Shell == "" || h.Shell == "bash"}
		if h.PtyseamAgent {
			if agents == nil {
				exe := file.AgentBinary
				if exe == "" || exe == "self" {
					if exe, err = agentBinary(); err != nil {
						return nil, nil, fmt.Errorf("--remote-hosts: %s: ptyseamAgent: this binary: %w", name, err)
					}
				}
				if _, err := os.Stat(exe); err != nil {
					return nil, nil, fmt.Errorf("--remote-hosts: agentBinary: %w", err)
				}
				agents = sshagent.New(sshBackend, sshagent.Options{Logger: log,
					Binaries: map[string]string{runtime.GOOS + "/" + runtime.GOARCH: exe}})
				if _, err := svc.Register(agents.Backend(agentBackendType, remotepkg.AgentShell)); err != nil {
					return nil, nil, err
				}
			}
			// The agent's shell prints the prompt marker itself.
			targets[name] = ptysession.Target{Backend: agentBackendType, Options: t, Description: h.Description}
		}
	}
	if _, err := svc.Register(sshBackend); err != nil {
		return nil, nil, err
	}
	return targets, agents, nil
}

// withSSHConfig fills h's empty fields from the OpenSSH client's
// configuration for h.SSHConfigAlias.
func withSSHConfig(h remoteHost) (remoteHost, error) {
	r, err := resolveSSHAlias(context.Background(), h.SSHConfigAlias, h.SSHConfigFile)
	if err != nil {
		return h, err
	}
	if h.Host == "" {
		h.Host = r.Host
	}
	if h.User == "" {
		h.User = r.User
	}
	if h.Port == 0 {
		h.Port = r.Port
	}
	if len(h.IdentityFiles) == 0 {
		h.IdentityFiles = r.IdentityFiles
	}
	if len(h.KnownHostsFiles) == 0 {
		h.KnownHostsFiles = r.KnownHostsFiles
	}
	if len(h.IdentityFiles) == 0 && h.PasswordFile == "" && !h.Agent {
		return h, fmt.Errorf("ssh config alias %s names no existing identity file; set identityFiles, passwordFile or agent", h.SSHConfigAlias)
	}
	return h, nil
}
