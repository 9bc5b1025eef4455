package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// connectClient serves cfg's tools to an in-memory MCP client with opts,
// speaking protocol version (the SDK's newest when "").
func connectClient(t *testing.T, cfg config, opts *mcp.ClientOptions, version string) (*mcp.ClientSession, *toolServer) {
	t.Helper()
	ts, err := newToolServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := ts.server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		sctx, scancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer scancel()
		if err := ts.shutdown(sctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return cs, ts
}

// connectEliciting connects a client that supports URL-mode elicitation
// on a protocol version that lets a server ask during a call: for each
// request it plays the person, who opens the page and sends what answer
// returns for it.
func connectEliciting(t *testing.T, cfg config, answer func(page string) string) (*mcp.ClientSession, *toolServer) {
	return connectClient(t, cfg, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			go personAnswers(t, req.Params.URL, answer)
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	}, "2025-11-25")
}

// personAnswers opens the one-time page at u and sends what answer
// returns for it ("" sends nothing).
func personAnswers(t *testing.T, u string, answer func(page string) string) {
	resp, err := http.Get(u)
	if err != nil {
		t.Errorf("the page: %v", err)
		return
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	secret := answer(string(b))
	if secret == "" {
		return
	}
	resp, err = http.PostForm(u, url.Values{"secret": {secret}})
	if err != nil {
		t.Errorf("sending the secret: %v", err)
		return
	}
	resp.Body.Close()
}

// installer writes an installer that asks for a password (getpass: the
// terminal's echo off) and then for YES, prints what it got, and exits 3.
func installer(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "installer.py")
	const src = `import getpass, hashlib, sys
pw = getpass.getpass("Password: ")
yes = input("Type YES to install: ")
print("installed", len(pw), hashlib.sha256(pw.encode()).hexdigest()[:12], yes)
sys.exit(3)
`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The send after a secret settles as any send does: an installer asks a
// password (given through pty_secret), then YES, then ends; the send of
// YES reports the shell's prompt and the command's exit code.
func TestSendAfterSecretSettlesOnThePrompt(t *testing.T) {
	cs, _ := connectEliciting(t, defaultConfig(t), func(string) string { return "hunter2" })
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	id, _ := opened["sessionId"].(string)
	sent, _ := call(t, cs, "pty_send", map[string]any{"id": id, "data": "python3 " + installer(t)})
	if sent["waitReason"] != "stdin_read" {
		t.Fatalf("the password prompt: %v", sent)
	}
	got, res := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "the installer's password"})
	if res.IsError || got["outcome"] != "entered" {
		t.Fatalf("pty_secret: %s", resultText(res))
	}
	waited, res := call(t, cs, "pty_wait", map[string]any{"conditions": []map[string]any{{"kind": "output", "target": id, "pattern": "Type YES", "fromLine": 0}}, "timeoutMs": 10000})
	if res.IsError {
		t.Fatalf("pty_wait: %s %v", resultText(res), waited)
	}
	sent, res = call(t, cs, "pty_send", map[string]any{"id": id, "data": "YES"})
	if sent["waitReason"] != "prompt" || sent["exitCode"] != float64(3) || !strings.Contains(sent["delta"].(string), "installed 7 f52fbd32b2b3 YES") {
		t.Fatalf("the send after the secret: %s\n%v", resultText(res), sent)
	}
}

// A model cannot phish a secret through its own prompt. The shell's own
// read and code typed on a command line are refused before the person is
// asked; a program the model wrote to a file is shown to the person by
// its command line, and what it prints of the secret reaches no result
// and no recording: the session shows [secret] instead.
func TestSecretPhishedByTheModelNeverReachesIt(t *testing.T) {
	dir := t.TempDir()
	const secret = "pw-Phish-7e1d!"
	var pages []string
	var mu sync.Mutex
	cs, ts := connectEliciting(t, defaultConfig(t, "--record-dir", dir, "--record-requested"), func(page string) string {
		mu.Lock()
		defer mu.Unlock()
		pages = append(pages, page)
		return secret
	})
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash", "record": true})
	id, _ := opened["sessionId"].(string)
	var results strings.Builder
	do := func(name string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
		t.Helper()
		m, res := call(t, cs, name, args)
		b, _ := json.Marshal(res)
		results.Write(b)
		return m, res
	}
	refused := func(data, want string) {
		t.Helper()
		if sent, _ := do("pty_send", map[string]any{"id": id, "data": data}); sent["waitReason"] != "stdin_read" {
			t.Fatalf("%s: the prompt settled on %v", data, sent["waitReason"])
		}
		_, res := do("pty_secret", map[string]any{"id": id, "message": "sudo password for deploy"})
		if !res.IsError || !strings.Contains(resultText(res), want) {
			t.Fatalf("%s: pty_secret %s", data, resultText(res))
		}
		do("pty_signal", map[string]any{"id": id, "signal": "SIGINT"})
	}
	refused(`read -rs -p 'Password: ' PW; echo "leak:$PW"`, "is a shell")
	refused(`bash -c 'read -rs -p "Password: " PW; echo "leak:$PW"'`, "is a shell")
	refused(`python3 -c 'import getpass; print("leak:" + getpass.getpass())'`, "code given on its command line")
	mu.Lock()
	if len(pages) != 0 {
		t.Fatalf("the person was asked %d times for a refused prompt", len(pages))
	}
	mu.Unlock()

	leak := filepath.Join(t.TempDir(), "leak.py")
	if err := os.WriteFile(leak, []byte("import getpass, time\npw = getpass.getpass('Password: ')\nprint('leak:' + pw)\n"+
		"print('slow:', end='', flush=True)\nfor c in pw:\n    print(c, end='', flush=True)\n    time.sleep(0.01)\nprint()\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	do("pty_send", map[string]any{"id": id, "data": "python3 " + leak})
	got, res := do("pty_secret", map[string]any{"id": id, "message": "sudo password for deploy"})
	if res.IsError || got["outcome"] != "entered" {
		t.Fatalf("pty_secret for a program from a file: %s", resultText(res))
	}
	mu.Lock()
	if len(pages) != 1 || !strings.Contains(pages[0], "<code>python3 "+leak+"</code>") || !strings.Contains(pages[0], id) {
		t.Fatalf("the page does not show who asks:\n%v", pages)
	}
	mu.Unlock()
	waited, res := do("pty_wait", map[string]any{"conditions": []map[string]any{{"kind": "output", "target": id, "pattern": `^slow:\S+$`, "fromLine": 0}}, "timeoutMs": 10000})
	if res.IsError {
		t.Fatalf("pty_wait: %s %v", resultText(res), waited)
	}
	do("pty_tail", map[string]any{"id": id})
	read, _ := do("pty_read", map[string]any{"id": id, "start": 0, "lines": 100})
	do("pty_screen", map[string]any{"id": id})
	do("pty_send", map[string]any{"id": id, "data": "echo done"})
	if b, _ := json.Marshal(read); !strings.Contains(string(b), "leak:[secret]") || !strings.Contains(string(b), "slow:[secret]") {
		t.Fatalf("the program's output is not masked: %s", b)
	}
	do("pty_close", map[string]any{"id": id})
	ts.rec.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	if len(files) != 1 {
		t.Fatalf("recordings %v", files)
	}
	cast, err := os.ReadFile(files[0])
	if err != nil || !strings.Contains(string(cast), "leak:[secret]") {
		t.Fatalf("recording %q %v", cast, err)
	}
	for what, text := range map[string]string{"a result": results.String(), "the recording": string(cast)} {
		if strings.Contains(text, secret) {
			t.Errorf("the secret is in %s", what)
		}
	}
}

// A client without URL-mode elicitation (a plain client, and one that
// declares it but speaks a protocol version where a server cannot send a
// request while it serves one) gets a one-time link to hand to its user;
// the user's secret reaches the terminal, and no result.
func TestSecretLinkForAClientWithoutElicitation(t *testing.T) {
	plain, _ := connect(t, defaultConfig(t))
	for name, cs := range map[string]*mcp.ClientSession{"plain": plain, "newer protocol": connectNewerProtocol(t)} {
		t.Run(name, func(t *testing.T) {
			const secret = "link-Secret-42!"
			opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash"})
			id, _ := opened["sessionId"].(string)
			call(t, cs, "pty_send", map[string]any{"id": id, "data": "python3 " + installer(t)})
			got, res := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "the installer's password", "timeoutMs": 60000})
			u, _ := got["url"].(string)
			if res.IsError || got["outcome"] != "link" || !strings.Contains(resultText(res), u) || got["expiresInMs"] != float64(60000) {
				t.Fatalf("pty_secret: %s %v", resultText(res), got)
			}
			if _, again := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "again"}); !again.IsError || !strings.Contains(resultText(again), "open already") {
				t.Fatalf("a second page for the session: %s", resultText(again))
			}
			// The user opens the link and sends the secret.
			resp, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(page), "installer.py</code>") {
				t.Fatalf("the page does not show who asks:\n%s", page)
			}
			resp, err = http.PostForm(u, url.Values{"secret": {secret}})
			if err != nil {
				t.Fatal(err)
			}
			answer, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(answer), `id="done"`) {
				t.Fatalf("the user's answer page: %s", answer)
			}
			waited, res := call(t, cs, "pty_wait", map[string]any{"conditions": []map[string]any{{"kind": "output", "target": id, "pattern": "Type YES", "fromLine": 0}}, "timeoutMs": 10000})
			if res.IsError {
				t.Fatalf("pty_wait: %s %v", resultText(res), waited)
			}
			sent, res := call(t, cs, "pty_send", map[string]any{"id": id, "data": "YES"})
			if !strings.Contains(sent["delta"].(string), "installed 15 ") || sent["exitCode"] != float64(3) {
				t.Fatalf("after the secret: %s", resultText(res))
			}
			// The page is gone once used.
			if resp, err := http.Get(u); err == nil {
				resp.Body.Close()
				t.Errorf("the page still answers: %s", resp.Status)
			}
			// And the session may ask again.
			call(t, cs, "pty_send", map[string]any{"id": id, "data": "python3 " + installer(t)})
			if got, res := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "again"}); got["outcome"] != "link" {
				t.Fatalf("a second secret: %s", resultText(res))
			}
			call(t, cs, "pty_close", map[string]any{"id": id})
		})
	}
}

// connectNewerProtocol connects a client that declares URL-mode
// elicitation on the newest protocol version its SDK speaks.
func connectNewerProtocol(t *testing.T) *mcp.ClientSession {
	t.Helper()
	cs, _ := connectClient(t, defaultConfig(t), &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("asked to elicit during a call on a protocol version that does not allow it")
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}, "")
	return cs
}

// The secret goes only to the program the person was shown: when another
// program reads the terminal by the time they send it, nothing is typed,
// and their page says so.
func TestSecretGoesOnlyToTheProgramShown(t *testing.T) {
	dir := t.TempDir()
	first, second, ready := filepath.Join(dir, "first.py"), filepath.Join(dir, "second.py"), filepath.Join(dir, "ready")
	if err := os.WriteFile(first, []byte("import getpass\nprint('first got', len(getpass.getpass('Password: ')))\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// second turns echo off, says so, and reads a line.
	if err := os.WriteFile(second, []byte("import sys, termios\nfd = sys.stdin.fileno()\na = termios.tcgetattr(fd)\n"+
		"a[3] &= ~termios.ECHO\ntermios.tcsetattr(fd, termios.TCSANOW, a)\nopen("+strconv.Quote(ready)+", 'w').close()\n"+
		"print('second got', len(sys.stdin.readline()))\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	answered := make(chan string, 1)
	cs, _ := connectClient(t, defaultConfig(t), &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			go func() {
				resp, err := http.Get(req.Params.URL)
				if err != nil {
					answered <- err.Error()
					return
				}
				page, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				// While the person reads the page, first ends and second asks.
				m := regexp.MustCompile(`first\.py</code> \(executable <code>[^<]*</code>, pid (\d+)\)`).FindSubmatch(page)
				if m == nil {
					answered <- "the page does not name first.py: " + string(page)
					return
				}
				pid, _ := strconv.Atoi(string(m[1]))
				_ = syscall.Kill(pid, syscall.SIGKILL)
				for deadline := time.Now().Add(testenv.HangBound); ; time.Sleep(10 * time.Millisecond) {
					if _, err := os.Stat(ready); err == nil || time.Now().After(deadline) {
						break
					}
				}
				resp, err = http.PostForm(req.Params.URL, url.Values{"secret": {"hunter2"}})
				if err != nil {
					answered <- err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				answered <- string(b)
			}()
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	}, "2025-11-25")
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	id, _ := opened["sessionId"].(string)
	call(t, cs, "pty_send", map[string]any{"id": id, "data": "python3 " + first + "; python3 " + second})
	_, res := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "the password"})
	if !res.IsError || !strings.Contains(resultText(res), "another program reads the terminal") {
		t.Fatalf("pty_secret: %s", resultText(res))
	}
	if page := <-answered; !strings.Contains(page, `id="refused"`) || !strings.Contains(page, "another program") {
		t.Fatalf("the person's answer: %s", page)
	}
	sent, _ := call(t, cs, "pty_send", map[string]any{"id": id, "data": "typed by the model"})
	if d, _ := sent["delta"].(string); !strings.Contains(d, "second got 19") {
		t.Fatalf("second read something before the model's line: %q", d)
	}
}
