package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/web"
	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/consumers/jobs/jobtools"
	"github.com/ptyseam/ptyseam/consumers/jobs/pipebackend"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
	"github.com/ptyseam/ptyseam/screen"
)

// version is reported to MCP clients.
const version = "0.1.0"

// toolServer serves a dispatcher's tools over MCP, one owner per MCP
// session. Closing a session disposes its owner: every terminal it opened
// is closed and no process survives.
type toolServer struct {
	svc      *core.Service
	sessions *ptysession.Sessions
	screens  *screen.Manager
	hub      *web.Hub         // the watch page's, when it is served
	rec      *record.Recorder // when sessions are recorded
	disp     *tools.Dispatcher
	log      *slog.Logger
	server   *mcp.Server

	closeDocker func() error // the docker backend's, when configured
	closeK8s    func() error // the k8s backend's, when configured
	secrets     *secretDesk  // pty_secret's pages handed out as links
	// dropRemote ends every connection to a far side's agent (remote.go):
	// at shutdown, after remoteCloseGrace, for far sides that do not
	// answer their sessions' close.
	dropRemote func()
	stopOnce   sync.Once
	dropTimer  *time.Timer

	structured bool // results carry their fields in structured content (--structured-results)
	// unserved reports a tool the dispatcher has and the profile leaves
	// out: no hint sends a model to it.
	unserved func(name string) bool

	// calls is the parent of every tool call's context: cancelCalls
	// ends the calls in flight at shutdown (a live send gets SIGINT).
	calls       context.Context
	cancelCalls context.CancelFunc

	mu     sync.Mutex
	owners map[*mcp.ServerSession]*core.Owner
	// ending cancels the calls of an MCP session, by its id: its end
	// (an HTTP DELETE) must not wait for calls that take their time.
	ending  map[string]context.CancelFunc
	callsOf map[*mcp.ServerSession]context.Context // the calls' context of each
	wg      sync.WaitGroup

	// leaseFor is --lease (lease.go): 0, or how long an owner waits for
	// its client after its connection ended.
	leaseFor      time.Duration
	leases        map[string]*lease // by resume token
	leaseOf       map[*core.Owner]*lease
	leasesStopped bool // a shutdown began: no owner waits any more
}

// newToolServer builds the service, the facade, the tools and the MCP
// server for cfg.
func newToolServer(cfg config, log *slog.Logger) (*toolServer, error) {
	if cfg.DockerTargets != "" {
		// A container target is a shell too, confined by the engine, not
		// by this host's sandbox.
		if len(cfg.Allow) > 0 {
			return nil, fmt.Errorf("--allow and --docker-targets cannot be combined: a container target opens a shell, which an allowlist forbids")
		}
		if cfg.Sandbox.On {
			return nil, fmt.Errorf("--sandbox and --docker-targets cannot be combined: a container shell runs outside this host's sandbox")
		}
	}
	if cfg.K8sTargets != "" {
		// A pod target is a shell too, confined by the cluster.
		if len(cfg.Allow) > 0 {
			return nil, fmt.Errorf("--allow and --k8s-targets cannot be combined: a pod target opens a shell, which an allowlist forbids")
		}
		if cfg.Sandbox.On {
			return nil, fmt.Errorf("--sandbox and --k8s-targets cannot be combined: a pod shell runs outside this host's sandbox")
		}
	}
	if cfg.RemoteHosts != "" {
		// A remote target is a login shell on another host: it would
		// reopen the door an allowlist closes, and no local sandbox
		// confines it.
		if len(cfg.Allow) > 0 {
			return nil, fmt.Errorf("--allow and --remote-hosts cannot be combined: a remote target opens a shell, which an allowlist forbids")
		}
		if cfg.Sandbox.On {
			return nil, fmt.Errorf("--sandbox and --remote-hosts cannot be combined: a remote shell runs outside this host's sandbox")
		}
	}
	screens := screen.NewManager(screen.Options{MaxCells: cfg.Limits.ScreenCells, MaxTotalCells: cfg.Limits.ScreenBudget})
	hub, rec, err := observers(cfg, log)
	if err != nil {
		return nil, err
	}
	onSpawn := func(info core.SessionInfo, o *core.Owner, tap *core.Tap) {
		if hub != nil {
			hub.OnSpawn(info, o, tap.Split())
		}
		if rec != nil {
			rec.OnSpawn(info, o, tap.Split())
		}
		screens.OnSpawn(info, o, tap)
	}
	onEvent := func(ev core.Event) {
		if hub != nil {
			hub.OnEvent(ev)
		}
		if rec != nil {
			rec.OnEvent(ev)
		}
	}
	svc := core.New(core.Options{
		Logger:              log,
		Scrollback:          core.ScrollbackLimits{MaxLines: cfg.ScrollbackLines, MaxBytes: cfg.ScrollbackBytes},
		MaxSessionsPerOwner: cfg.MaxSessions,
		MaxSessions:         cfg.Limits.TotalSessions,
		OnSpawn:             onSpawn,
		OnEvent:             onEvent,
		HumanControl:        cfg.Watch.policy(),
	})
	screens.Bind(svc)
	if hub != nil {
		hub.Bind(svc)
	}
	sb, err := cfg.Sandbox.policy()
	if err != nil {
		return nil, err
	}
	lopts := localpty.Options{Sandbox: sb, DisableCgroup: cfg.NoCgroup}
	sopts := ptysession.Options{TailLines: cfg.TailLines, MaxResultBytes: outputBytes(cfg.ResultBytes), MaxTimeout: cfg.MaxTimeout, Recording: rec != nil, Cut: ptysession.CutKeepErrors}
	var al allowlist
	if len(cfg.Allow) > 0 {
		// Under an allowlist no shell exists: programs run directly as
		// argv on the exec backend, and the shell backend is not even
		// registered.
		var err error
		if al, err = resolveAllowlist(cfg.Allow); err != nil {
			return nil, err
		}
		sopts.Backend = localpty.TypeExec
	} else if _, err := svc.Register(localpty.NewShell(localpty.ShellOptions{Options: lopts, Shell: cfg.Shell})); err != nil {
		return nil, err
	}
	if _, err := svc.Register(localpty.NewExec(localpty.ExecOptions{Options: lopts})); err != nil {
		return nil, err
	}
	targets, dropRemote, err := remoteTargets(cfg, svc, log)
	if err != nil {
		return nil, err
	}
	dtargets, closeDocker, err := dockerTargets(cfg, svc, log)
	if err != nil {
		return nil, err
	}
	for name, t := range dtargets {
		if _, dup := targets[name]; dup {
			return nil, fmt.Errorf("target %q is both in --remote-hosts and in --docker-targets", name)
		}
		if targets == nil {
			targets = map[string]ptysession.Target{}
		}
		targets[name] = t
	}
	ktargets, closeK8s, err := k8sTargets(cfg, svc, log)
	if err != nil {
		return nil, err
	}
	for name, t := range ktargets {
		if _, dup := targets[name]; dup {
			return nil, fmt.Errorf("target %q is named twice among --remote-hosts, --docker-targets and --k8s-targets", name)
		}
		if targets == nil {
			targets = map[string]ptysession.Target{}
		}
		targets[name] = t
	}
	sopts.Targets = targets
	sessions := ptysession.New(svc, sopts)
	// What pty_keys and pty_screen show as a screen is not returned again
	// as a stream by the next pty_send or pty_tail.
	screens.FollowTails(sessions)
	// Structured results (--structured-results) come back encoded: the
	// dispatcher encodes each to bound it, and the SDK sends a
	// json.RawMessage as it is. The text form sends none.
	disp, err := tools.NewDispatcher(tools.Options{MaxTextBytes: cfg.ResultBytes, EncodeStructured: cfg.StructuredResults})
	if err != nil {
		return nil, err
	}
	var ts *toolServer // set below; jobs only notify after a launch
	// The jobs' pipe backend, registered here so that it follows
	// --no-cgroup like the terminals (jobs.New would register a default
	// one). Under a sandbox there is none: jobs run on the exec backend,
	// confined like a terminal (cfg.Jobs.DisablePipe).
	if sb == nil {
		if _, err := svc.Register(pipebackend.New(pipebackend.Options{DisableCgroup: cfg.NoCgroup, Logger: log})); err != nil {
			return nil, err
		}
	}
	jcfg := cfg.Jobs
	jcfg.Logger = log
	jcfg.Notify = func(n jobs.Notification) { ts.notifyJob(n) }
	jm, err := jobs.New(svc, jcfg)
	if err != nil {
		return nil, err
	}
	// The facade disposes an owner's jobs before its terminals, and shuts
	// the jobs down; the service tells the facade and the screens when a
	// session closes (core.Service.OnClose).
	sessions.Attach(jm)
	if hub != nil {
		hub.NameJobs(jm.JobOf)
	}
	for _, t := range ptytools.Tools(sessions) {
		if t.Name == "pty_open" {
			t = ptytools.TargetedOpen(sessions, t)
		}
		if t.Name == "pty_open" && al != nil {
			t = allowlisted(t, al)
		}
		if t.Name == ptytools.ToolOpen && (len(cfg.Allow) > 0 || !served(cfg.Tools, "bg_launch")) {
			t = withoutJobsHint(t)
		}
		if t.Name == ptytools.ToolOpen && cfg.Lease > 0 {
			if t, err = withResumeArg(t); err != nil {
				return nil, err
			}
		}
		switch t.Name {
		case ptytools.ToolSend:
			t = screen.FullScreenSend(screens, t)
		case ptytools.ToolOpen:
			t = screen.FullScreenOpen(screens, t)
		case ptytools.ToolList:
			if len(cfg.Allow) == 0 { // the job tools are served
				t = jobtools.ListNamesJobs(jm, t)
			}
		}
		if err := disp.Add(t); err != nil {
			return nil, err
		}
	}
	for _, t := range screen.Tools(screens) {
		if err := disp.Add(t); err != nil {
			return nil, err
		}
	}
	if len(cfg.Allow) == 0 { // jobs run any command: not under an allowlist (under a sandbox, confined like a terminal)
		for _, t := range jobtools.Tools(jm) {
			if err := disp.Add(t); err != nil {
				return nil, err
			}
		}
	}
	waitSources := []ptysession.WaitSource{screenWaits{screens}}
	if len(cfg.Allow) == 0 {
		waitSources = append(waitSources, jobtools.WaitSource(jm))
	}
	if err := disp.Add(screen.FullScreenWait(screens, ptytools.WaitTool(sessions, waitSources...))); err != nil {
		return nil, err
	}
	if err := disp.Add(ptytools.SearchTool(sessions, waitSources...)); err != nil {
		return nil, err
	}
	secrets := newSecretDesk(log)
	if err := disp.Add(withSecretScreen(screens, secretTool(svc, sessions, secrets, cfg.MaxTimeout))); err != nil {
		return nil, err
	}
	ts = &toolServer{closeDocker: closeDocker, closeK8s: closeK8s, secrets: secrets, dropRemote: dropRemote, svc: svc, sessions: sessions, screens: screens, hub: hub, rec: rec, disp: disp, log: log, structured: cfg.StructuredResults, owners: make(map[*mcp.ServerSession]*core.Owner),
		callsOf: make(map[*mcp.ServerSession]context.Context), ending: make(map[string]context.CancelFunc),
		leaseFor: cfg.Lease, leases: make(map[string]*lease), leaseOf: make(map[*core.Owner]*lease)}
	ts.calls, ts.cancelCalls = context.WithCancel(context.Background())
	ts.server = mcp.NewServer(&mcp.Implementation{Name: "ptyseam", Version: version}, &mcp.ServerOptions{
		Instructions: "Persistent terminal sessions: pty_open starts a shell (or a program in it), pty_send types into it and " +
			"returns what it printed and why control came back, pty_tail returns only new output, pty_close ends it " +
			"and every process it started. Sessions persist between calls until closed or until this connection ends.",
		Logger:             log,
		InitializedHandler: ts.initialized,
	})
	// A tool is unserved when the profile leaves it out, or when this
	// server has none (the job tools under --allow).
	known := map[string]bool{}
	for _, n := range []string{jobtools.ToolLaunch, jobtools.ToolSend, jobtools.ToolRead, jobtools.ToolList,
		jobtools.ToolStop, jobtools.ToolStopGroup, jobtools.ToolDrop} {
		known[n] = true
	}
	defined := map[string]bool{}
	for _, d := range disp.Definitions() {
		defined[d.Name], known[d.Name] = true, true
	}
	ts.unserved = func(name string) bool { return known[name] && (!defined[name] || !served(cfg.Tools, name)) }
	for _, d := range disp.Definitions() {
		if !served(cfg.Tools, d.Name) {
			continue
		}
		ts.server.AddTool(mcpTool(d, cfg.StructuredResults, !fullList(cfg.Tools)), ts.handler(d.Name))
	}
	return ts, nil
}

// initialized starts watching a new MCP session so that its owner is
// disposed when it ends.
func (ts *toolServer) initialized(ctx context.Context, req *mcp.InitializedRequest) {
	ts.ownerOf(req.Session)
}

// ownerOf returns the owner of an MCP session, creating it (and the watcher
// that disposes it when the session ends) on first use.
func (ts *toolServer) ownerOf(ss *mcp.ServerSession) *core.Owner {
	o, _ := ts.clientOf(ss)
	return o
}

// clientOf returns the owner of an MCP session and the context its calls
// run under (ended by endCalls, or when the session ends), creating both
// (and the watcher that disposes the owner when the session ends) on
// first use.
func (ts *toolServer) clientOf(ss *mcp.ServerSession) (*core.Owner, context.Context) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if o := ts.owners[ss]; o != nil {
		return o, ts.callsOf[ss]
	}
	// A stdio connection has no MCP session id: it is the process's one
	// client.
	id := ss.ID()
	if id == "" {
		id = "stdio"
	}
	o := core.NewOwner("mcp-" + id)
	ctx, cancel := context.WithCancel(ts.calls)
	ts.owners[ss] = o
	ts.callsOf[ss] = ctx
	ts.ending[ss.ID()] = cancel
	if ts.leaseFor > 0 {
		l := &lease{token: newResumeToken(), owner: o, ss: ss}
		ts.leases[l.token] = l
		ts.leaseOf[o] = l
	}
	ts.wg.Add(1)
	go func() {
		defer ts.wg.Done()
		_ = ss.Wait()
		cancel()
		ts.ended(ss)
	}()
	return o, ctx
}

// ended forgets an ended MCP session and disposes its owner, unless the
// owner has a lease to wait out (or another connection resumed it).
func (ts *toolServer) ended(ss *mcp.ServerSession) {
	ts.mu.Lock()
	o := ts.owners[ss] // a resume may have given ss another owner
	ts.mu.Unlock()
	if o != nil && !ts.park(ss, o) {
		ts.dispose(o)
		ts.log.Info("ptyseam: client disconnected; its sessions are closed", "owner", o.Name())
	}
	// Forgotten only now: a call that raced with the end finds the
	// disposed owner, not a fresh one that nothing would dispose.
	ts.mu.Lock()
	delete(ts.owners, ss)
	delete(ts.callsOf, ss)
	delete(ts.ending, ss.ID())
	ts.mu.Unlock()
}

// endCalls cancels the calls in flight of the MCP session id (a live send
// gets SIGINT, an open under way is undone), so that ending the session
// does not wait for them.
func (ts *toolServer) endCalls(id string) {
	ts.mu.Lock()
	cancel := ts.ending[id]
	ts.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// dispose closes every terminal and job of a client that is gone.
func (ts *toolServer) dispose(o *core.Owner) {
	ctx, cancel := context.WithTimeout(context.Background(), core.DefaultCloseTimeout)
	defer cancel()
	if err := ts.sessions.Dispose(ctx, o); err != nil {
		ts.log.Error("ptyseam: closing a disconnected client's jobs and sessions failed", "owner", o.Name(), "error", err)
	}
}

// handler bridges one tool to MCP: the caller's MCP session is the owner,
// progress goes out as notifications, and a cancelled request cancels the
// call (a live send gets SIGINT).
func (ts *toolServer) handler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		owner, calls := ts.clientOf(req.Session)
		ctx, cancel := context.WithCancel(withMCPSession(ctx, req.Session))
		defer cancel()
		defer context.AfterFunc(calls, cancel)()
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		if name == ptytools.ToolOpen && ts.leaseFor > 0 {
			if token, ok := resumeToken(args); ok {
				res, err := ts.resume(ctx, req.Session, token)
				if err != nil {
					return ts.errorResult(err), nil
				}
				return mcpResult(res, ts.structured), nil
			}
		}
		var progress func(tools.ProgressUpdate)
		if token := req.Params.GetProgressToken(); token != nil {
			step := 0.0
			progress = func(u tools.ProgressUpdate) {
				step++
				msg := u.Message
				if u.Output != "" {
					msg = tools.Bound(u.Output, core.MaxProgressBytes)
				}
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: step, Message: msg})
			}
		}
		res, err := ts.disp.Call(ctx, owner, name, args, tools.CallOptions{Progress: progress})
		if err != nil {
			return ts.errorResult(err), nil
		}
		if name == ptytools.ToolOpen && ts.leaseFor > 0 {
			res = ts.withToken(owner, res)
		}
		return mcpResult(res, ts.structured), nil
	}
}

// errorResult is the MCP result of a failed call; its hint names only
// tools the profile serves.
func (ts *toolServer) errorResult(err error) *mcp.CallToolResult {
	te := *tools.AsToolError(err, "") // a copy: the hint is the profile's
	te.Hint = tools.OnlyServed(te.Hint, ts.unserved)
	out := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: te.Text()}}}
	out.Meta = mcp.Meta{"code": te.Code}
	return out
}

// closeClients ends every MCP session (their calls first), so that the
// watchers dispose of their owners; it returns when all have closed or ctx
// is done.
func (ts *toolServer) closeClients(ctx context.Context) {
	ts.stopping()
	var wg sync.WaitGroup
	for ss := range ts.server.Sessions() {
		wg.Go(func() { _ = ss.Close() })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// remoteCloseGrace is how long a shutdown lets far sides answer their
// sessions' close before it ends every connection to them: an agent
// closes everything it started when its stream ends, so what it did not
// answer by then it still cleans up, and a hostile or stopped one cannot
// hold the server's exit.
const remoteCloseGrace = 500 * time.Millisecond

// stopping begins a shutdown, once: the calls in flight are cancelled and
// the far sides' connections are dropped after remoteCloseGrace.
func (ts *toolServer) stopping() {
	ts.stopOnce.Do(func() {
		ts.stopLeases()
		ts.cancelCalls()
		ts.dropTimer = time.AfterFunc(remoteCloseGrace, ts.dropRemote)
	})
}

// shutdown closes every session of every client.
func (ts *toolServer) shutdown(ctx context.Context) error {
	ts.stopping()
	ts.secrets.close()
	err := errors.Join(ts.sessions.Shutdown(ctx), ts.svc.Shutdown(ctx))
	// Every session is closed: what is left of the far sides' connections
	// (none, unless one outlived its sessions) ends now.
	ts.dropTimer.Stop()
	ts.dropRemote()
	if ts.closeK8s != nil {
		err = errors.Join(err, ts.closeK8s())
	}
	if ts.closeDocker != nil {
		err = errors.Join(err, ts.closeDocker())
	}
	ts.screens.Close()
	if ts.hub != nil {
		ts.hub.Close()
	}
	if ts.rec != nil {
		ts.rec.Close() // after the sessions ended: the files are complete
	}
	done := make(chan struct{})
	go func() { ts.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		err = errors.Join(err, ctx.Err())
	}
	return err
}

// liveSessions returns the ids of the MCP sessions the server holds.
func (ts *toolServer) liveSessions() map[string]bool {
	ids := make(map[string]bool)
	for ss := range ts.server.Sessions() {
		ids[ss.ID()] = true
	}
	return ids
}

// screenWaits lets pty_wait watch sessions' screens (kind screen); it
// knows no ids of its own.
type screenWaits struct{ *screen.Manager }

// Watch implements ptysession.WaitSource: the screen manager serves
// screens, not targets.
func (screenWaits) Watch(*core.Owner, string) (ptysession.WaitWatcher, bool, error) {
	return nil, false, nil
}

// outputBytes is the output's share of a result's text of resultBytes
// (--result-bytes): the facade cuts an output (by lines, naming what it
// left out) to fit it, and the rest is room for the headline line above
// it (a quarter, at most 1 KiB), so that the text fits resultBytes whole
// and the dispatcher's bound on the text, a cut through its middle, does
// not fire on an output.
func outputBytes(resultBytes int) int {
	return resultBytes - min(resultBytes/4, 1<<10)
}
