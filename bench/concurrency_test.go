package bench

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/ptyseam/ptyseam/consumers/docker"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
	gossh "golang.org/x/crypto/ssh"
)

// openEngine is one target of BenchmarkOpenAtOnce: how ptyseam opens a
// session there (ready for input when it returns) and closes it, and the
// engine's own floor for the same start.
type openEngine struct {
	open  func(ctx context.Context) (close func() error, err error)
	floor func(ctx context.Context) (cleanup func() error, err error)
}

// BenchmarkOpenAtOnce opens 1, 10 and 50 sessions at once
// (PTYSEAM_BENCH_OPEN_AT_ONCE, a comma-separated list) on each target and,
// in the same run, as many of the engine's own floor at once, and reports
// for each count the p50 and p99 of the time from the common start to each
// session being ready, and the ratio of the p50s (nN/floor-p50). Each
// iteration makes one round of each count, ptyseam and floor in turn (the
// side that goes first alternating); sessions are closed untimed.
//   - local: a "shell" session on the core service (localpty), returned at
//     its first prompt; the floor is `bash --noprofile --norc -i` on a bare
//     creack/pty PTY read to its first prompt marker.
//   - ssh: pty_open's path through the facade to a target on the test
//     sshd (a bash login shell given the prompt marker), a fresh backend
//     for each round, so that its dial is timed as the floor's is; the
//     floor is the OpenSSH client's `ssh -tt host true`, a dial each.
//   - docker: the facade's open of a bash in a new container of the test
//     image (network none) on a private dockerd, as a targets file without
//     an agent gives; the floor is the docker CLI's `docker run -d` and
//     `docker exec ... true` in that container.
func BenchmarkOpenAtOnce(b *testing.B) {
	counts := openCounts(b)
	b.Run("local", func(b *testing.B) { openAtOnce(b, counts, localEngine(b)) })
	b.Run("ssh", func(b *testing.B) { openAtOnce(b, counts, sshEngine(b)) })
	b.Run("docker", func(b *testing.B) { openAtOnce(b, counts, dockerEngine(b)) })
}

// openCounts reads PTYSEAM_BENCH_OPEN_AT_ONCE (default "1,10,50").
func openCounts(b *testing.B) []int {
	spec := os.Getenv("PTYSEAM_BENCH_OPEN_AT_ONCE")
	if spec == "" {
		spec = "1,10,50"
	}
	var counts []int
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("PTYSEAM_BENCH_OPEN_AT_ONCE=%q: %q is not a positive count", spec, f)
		}
		counts = append(counts, n)
	}
	return counts
}

func openAtOnce(b *testing.B, counts []int, e openEngine) {
	ctx := context.Background()
	ours := make(map[int][]time.Duration)
	floor := make(map[int][]time.Duration)
	round := 0
	for b.Loop() {
		for _, n := range counts {
			sides := []func(){
				func() { ours[n] = append(ours[n], atOnce(ctx, b, n, e.open)...) },
				func() { floor[n] = append(floor[n], atOnce(ctx, b, n, e.floor)...) },
			}
			if round%2 == 1 {
				sides[0], sides[1] = sides[1], sides[0]
			}
			round++
			for _, side := range sides {
				side()
			}
		}
	}
	for _, n := range counts {
		o, f := percentile(ours[n], 50), percentile(floor[n], 50)
		b.ReportMetric(ms(o), fmt.Sprintf("n%d-p50-ms", n))
		b.ReportMetric(ms(percentile(ours[n], 99)), fmt.Sprintf("n%d-p99-ms", n))
		b.ReportMetric(ms(f), fmt.Sprintf("n%d-floor-p50-ms", n))
		b.ReportMetric(ms(percentile(floor[n], 99)), fmt.Sprintf("n%d-floor-p99-ms", n))
		b.ReportMetric(float64(o)/float64(f), fmt.Sprintf("n%d/floor-p50", n))
	}
}

// atOnce starts n calls of start at the same moment and returns the time
// from that moment to each call's return; then it runs every cleanup the
// calls returned, at once and untimed.
func atOnce(ctx context.Context, b *testing.B, n int, start func(context.Context) (func() error, error)) []time.Duration {
	b.Helper()
	var wg sync.WaitGroup
	go0 := make(chan struct{})
	took := make([]time.Duration, n)
	cleanups := make([]func() error, n)
	errs := make([]error, n)
	var t0 time.Time
	for i := range n {
		wg.Go(func() {
			<-go0
			cleanups[i], errs[i] = start(ctx)
			took[i] = time.Since(t0)
		})
	}
	t0 = time.Now()
	close(go0)
	wg.Wait()
	for i := range n {
		if cleanups[i] == nil {
			continue
		}
		wg.Go(func() {
			if err := cleanups[i](); err != nil {
				errs[i] = errors.Join(errs[i], fmt.Errorf("cleanup: %w", err))
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		b.Fatalf("%d at once: %v", n, err)
	}
	return took
}

// localEngine opens "shell" sessions on a core service with localpty.
func localEngine(b *testing.B) openEngine {
	svc := newService(b, core.Options{})
	owner := core.NewOwner("bench")
	return openEngine{
		open: func(ctx context.Context) (func() error, error) {
			s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
			if err != nil {
				return nil, err
			}
			return func() error { _, err := svc.Close(ctx, owner, s.ID, "bench"); return err }, nil
		},
		floor: func(context.Context) (func() error, error) {
			r, err := openRawShell()
			if err != nil {
				return nil, err
			}
			return func() error { r.close(); return nil }, nil
		},
	}
}

// openRawShell is startRawShell returning its error (for goroutines).
func openRawShell() (*rawShell, error) {
	cmd := exec.Command(shellArgv[0], shellArgv[1:]...)
	cmd.Env = shellEnv()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		return nil, err
	}
	r := &rawShell{cmd: cmd, f: f, buf: make([]byte, 64<<10)}
	if err := r.untilPrompt(); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// facadeTarget returns a facade on a new service with backend registered
// and t as its one target, "t", shut down when the benchmark ends. Its
// opens wait up to testenv.HangBound, not pty_open's default 10 s: 10
// containers at once were seen to take 17 s, which is what the row is to
// measure, not fail on.
func facadeTarget(b *testing.B, backend core.Backend, t ptysession.Target) *ptysession.Sessions {
	svc := targetService(b, backend)
	return ptysession.New(svc, ptysession.Options{Targets: map[string]ptysession.Target{"t": t},
		OpenTimeout: testenv.HangBound})
}

// facadeOpen opens a shell on the facade's target "t".
func facadeOpen(ctx context.Context, s *ptysession.Sessions) (func() error, error) {
	owner := core.NewOwner("bench")
	res, err := s.Open(ctx, owner, ptysession.OpenRequest{Target: "t"})
	if err != nil {
		return nil, err
	}
	return func() error { _, err := s.Close(ctx, owner, res.SessionID); return err }, nil
}

// sshEngine starts the test sshd with a key of the benchmark's own (the
// OpenSSH client is given the same key and known_hosts file).
func sshEngine(b *testing.B) openEngine {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		b.Fatal(err)
	}
	srv := sshdtest.Start(b, sshdtest.Options{AuthorizedKeys: []gossh.PublicKey{signer.PublicKey()}})
	dir := b.TempDir()
	kh := filepath.Join(dir, "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		b.Fatal(err)
	}
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		b.Fatal(err)
	}
	keyFile := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(blk), 0o600); err != nil {
		b.Fatal(err)
	}
	tg := &ssh.Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: ssh.Auth{KeyFiles: []string{keyFile}},
		HostKeys: ssh.HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	// A facade (and backend, and connection pool) for each round: a
	// round's sessions share one dial, as a user's would, and the next
	// round dials again.
	var mu sync.Mutex
	var cur *ptysession.Sessions
	var users int
	return openEngine{
		open: func(ctx context.Context) (func() error, error) {
			mu.Lock()
			if users == 0 {
				cur = facadeTarget(b, ssh.NewBackend(ssh.BackendOptions{Logger: slog.New(slog.DiscardHandler)}),
					ptysession.Target{Backend: ssh.Type, Options: tg, PromptMarker: true})
			}
			users++
			s := cur
			mu.Unlock()
			done := func() { mu.Lock(); users--; mu.Unlock() }
			closeFn, err := facadeOpen(ctx, s)
			if err != nil {
				done()
				return nil, err
			}
			return func() error { defer done(); return closeFn() }, nil
		},
		floor: func(ctx context.Context) (func() error, error) {
			_, _, err := srv.RunOpenSSH(ctx, keyFile, kh, "true")
			return nil, err
		},
	}
}

// dockerEngine starts a private dockerd (stopped by TestMain).
func dockerEngine(b *testing.B) openEngine {
	cli, err := exec.LookPath("docker")
	if err != nil {
		skipOrFail(b, "the docker CLI is not installed (apt-get install docker.io): no floor")
	}
	d := dockertest.Shared(b)
	db, err := docker.NewBackend(docker.BackendOptions{Host: d.Host, AllowedImages: []string{d.Image}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	s := facadeTarget(b, db, ptysession.Target{Backend: docker.Type, PromptMarker: true,
		Options: &docker.Target{Image: d.Image, Shell: []string{"/bin/bash"}, NetworkMode: "none"}})
	run := func(ctx context.Context, args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, cli, append([]string{"-H", d.Host}, args...)...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("docker %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	return openEngine{
		open: func(ctx context.Context) (func() error, error) { return facadeOpen(ctx, s) },
		floor: func(ctx context.Context) (func() error, error) {
			id, err := run(ctx, "run", "-d", "--network", "none", d.Image, "sleep", "infinity")
			if err != nil {
				return nil, err
			}
			rm := func() error { _, err := run(context.Background(), "rm", "-f", id); return err }
			if _, err := run(ctx, "exec", id, "true"); err != nil {
				return nil, errors.Join(err, rm())
			}
			return rm, nil
		},
	}
}
