package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession"
)

// config is what a deployer sets for `ptyseam mcp`.
type config struct {
	HTTPAddr        string
	Token           string
	TokenFile       string
	AllowRemote     bool
	Shell           []string
	TailLines       int
	ScrollbackLines int
	ScrollbackBytes int
	ResultBytes     int
	MaxSessions     int
	Limits          limits
	Sandbox         sandboxFlags
	Allow           []string
	SessionTimeout  time.Duration
	MaxTimeout      time.Duration
	LogLevel        string
	// StructuredResults puts each result's fields in structured content
	// and only its headline in the text (results.go); off, the text holds
	// the whole rendering.
	StructuredResults bool
	NoCgroup          bool
	// RemoteHosts is the file of remote hosts pty_open may target
	// (remote.go).
	RemoteHosts string
	// DockerTargets is the file of container targets pty_open may
	// target (docker.go).
	DockerTargets string
	// K8sTargets is the file of Kubernetes targets pty_open may target
	// (k8s.go).
	K8sTargets string
	Tools      string
	// Watch configures the watch page (watch.go).
	Watch watchFlags
	// Jobs configures the background jobs (jobflags.go).
	Jobs jobs.Config
	// Lease is how long a client's terminals outlive its connection,
	// waiting for it to resume them (lease.go); 0: not at all.
	Lease time.Duration
}

// tokenEnv names the environment variable holding the HTTP bearer token.
const tokenEnv = "PTYSEAM_TOKEN"

func parseConfig(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("ptyseam mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var shell, allow string
	fs.StringVar(&c.HTTPAddr, "http", "", "serve the streamable HTTP transport on `ADDR` (e.g. 127.0.0.1:8765) instead of stdio;\neach MCP session is its own owner")
	fs.StringVar(&c.Token, "token", "", "bearer `TOKEN` HTTP clients must present, at least 32 characters (default: --token-file, else $"+tokenEnv+",\nelse a random token printed at start); visible to other users in ps: prefer --token-file")
	fs.StringVar(&c.TokenFile, "token-file", "", "read the bearer token from `FILE` (first line; the file must not be readable by group or others)")
	fs.BoolVar(&c.AllowRemote, "allow-remote", false, "allow --http to bind a non-loopback address (anyone who can reach it and knows the token gets shells)")
	fs.StringVar(&shell, "shell", strings.Join(localpty.DefaultShell, " "), "the interactive shell `COMMAND` of pty_open sessions (words split on spaces)")
	fs.IntVar(&c.TailLines, "tail-lines", 200, "default line budget of pty_tail and pty_read")
	fs.IntVar(&c.ScrollbackLines, "scrollback-lines", core.DefaultScrollback.MaxLines, "lines of scrollback each session retains")
	fs.IntVar(&c.ScrollbackBytes, "scrollback-bytes", core.DefaultScrollback.MaxBytes, "bytes of scrollback each session retains")
	fs.IntVar(&c.ResultBytes, "result-bytes", core.DefaultMaxOutputBytes, "byte cap on the text of every tool result (cut with a marker); the JSON of its structured content is capped at twice this")
	fs.IntVar(&c.MaxSessions, "max-sessions", 8, "maximum live sessions per owner (per MCP connection); 0 means no limit")
	c.Limits.flags(fs)
	c.Sandbox.flags(fs)
	c.Watch.flags(fs)
	var jf jobFlags
	jf.flags(fs)
	fs.StringVar(&allow, "allow", "", "comma-separated `PROGRAMS` pty_open may run (names looked up in PATH at start, or absolute paths; e.g. \"python3,gdb\");\neach runs directly as argv with no shell, and env is refused; empty allows any command in a shell")
	fs.DurationVar(&c.MaxTimeout, "max-timeout", ptysession.DefaultMaxTimeout, "the longest timeoutMs and quietMs a model may set on pty_open and pty_send")
	fs.DurationVar(&c.SessionTimeout, "session-timeout", 30*time.Minute, "close an HTTP MCP session, and its terminals, after this idle time")
	fs.DurationVar(&c.Lease, "lease", 0, "keep a client's terminals and jobs this long after its HTTP connection ends, for it to resume them\n(pty_open's resume argument, with the token its pty_open results give); 0 closes them at once")
	fs.BoolVar(&c.StructuredResults, "structured-results", false, "put each result's fields in structured content (with output schemas under --tools full) and only\nits one-line summary in the text, for programs that read the fields (default: the text holds the\nwhole result, which every host shows its model)")
	fs.BoolVar(&c.NoCgroup, "no-cgroup", false, "do not put sessions in cgroup v2 leaves; closing finds their processes by scanning /proc\n(the fallback where cgroup v2 is missing; escapees are then found as adopted children)")
	fs.StringVar(&c.RemoteHosts, "remote-hosts", "", "JSON `FILE` of remote hosts pty_open may open a shell on (its target argument);\nthe credentials stay in the file, the model only names a host (see docs/ssh.md)")
	fs.StringVar(&c.DockerTargets, "docker-targets", "", "JSON `FILE` of container targets pty_open may open a shell in (its target argument): each names an image\n(a new container per session, no network by default, removed at close) or an existing container, with mounts and limits;\nthe images and containers named there are the only ones allowed (see docs/docker.md)")
	fs.StringVar(&c.K8sTargets, "k8s-targets", "", "JSON `FILE` of Kubernetes targets pty_open may open a shell in (its target argument): each names a pod template\n(a new pod per session, deleted at close) or an existing pod, with the kubeconfig; every session runs on a ptyseam\nagent copied into its pod; the images and pods named there are the only ones allowed (see docs/k8s.md)")
	fs.StringVar(&c.Tools, "tools", profileStandard, "the tool `PROFILE`: standard (the core tools plus pty_screen, pty_list, pty_secret, bg_launch,\nbg_read and bg_stop, without output schemas), core (pty_open, pty_send, pty_tail, pty_close, pty_keys,\npty_signal, pty_wait and pty_read, without output schemas) or full (every tool, with output schemas)")
	fs.StringVar(&c.LogLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error (terminal bytes are never logged)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: ptyseam mcp [flags]\n\nServes the ptyseam tools over the Model Context Protocol: stdio by default.\nWhen the client disconnects, every session it opened is closed and no process survives.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	c.Shell = strings.Fields(shell)
	if len(c.Shell) == 0 {
		return c, errors.New("--shell must not be empty")
	}
	for _, a := range strings.Split(allow, ",") {
		if a = strings.TrimSpace(a); a != "" {
			c.Allow = append(c.Allow, a)
		}
	}
	if err := checkProfile(c.Tools); err != nil {
		return c, err
	}
	switch {
	case c.TailLines <= 0 || c.TailLines > 10_000:
		return c, errors.New("--tail-lines must be between 1 and 10000")
	case c.ScrollbackLines <= 0 || c.ScrollbackBytes <= 0:
		return c, errors.New("--scrollback-lines and --scrollback-bytes must be positive")
	case c.ResultBytes < 1024:
		return c, errors.New("--result-bytes must be at least 1024")
	case c.MaxTimeout < time.Second:
		return c, errors.New("--max-timeout must be at least 1s")
	case c.MaxSessions < 0:
		return c, errors.New("--max-sessions must not be negative")
	case c.Lease < 0 || c.Lease > 24*time.Hour:
		return c, errors.New("--lease must be between 0 and 24h")
	case c.Lease > 0 && c.HTTPAddr == "":
		return c, errors.New("--lease needs --http: a stdio server ends with its one client")
	}
	if err := c.Limits.check(); err != nil {
		return c, err
	}
	jc, err := jf.config(c.Sandbox.On)
	if err != nil {
		return c, err
	}
	c.Jobs = jc
	if err := c.Watch.check(c.HTTPAddr); err != nil {
		return c, err
	}
	if err := c.resolveToken(); err != nil {
		return c, err
	}
	return c, nil
}

// resolveToken settles the bearer token: --token, --token-file or
// $PTYSEAM_TOKEN (one of them; empty means a random one at start), and
// refuses a short one.
func (c *config) resolveToken() error {
	if c.Token != "" && c.TokenFile != "" {
		return errors.New("give --token or --token-file, not both")
	}
	if c.TokenFile != "" {
		t, err := readTokenFile(c.TokenFile)
		if err != nil {
			return err
		}
		c.Token = t
	}
	// Sessions inherit the server's environment: no server secret may
	// reach one, so the variable goes once it is read.
	envToken := os.Getenv(tokenEnv)
	_ = os.Unsetenv(tokenEnv)
	if c.Token == "" {
		c.Token = envToken
	}
	if c.Token != "" && len(c.Token) < minTokenLen {
		return fmt.Errorf("the bearer token has %d characters; use at least %d (e.g. `openssl rand -hex 24`)", len(c.Token), minTokenLen)
	}
	return nil
}

// readTokenFile returns the first line of path, refusing a file that
// group or others may read.
func readTokenFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("--token-file %s is readable by group or others (mode %v); run chmod 600 on it", path, fi.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("--token-file %s is empty", path)
	}
	return line, nil
}
