package ptysession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// FuzzOpenEnv checks that any env value reaches the program byte-exact
// through a real interactive bash on the real service, both passed to the
// backend (typed false) and typed as export statements (typed true), and
// that a value with NUL is INVALID_ARGUMENT.
func FuzzOpenEnv(f *testing.F) {
	for _, v := range envValues {
		f.Add(v, false)
		f.Add(v, true)
	}
	f.Add("nul\x00inside", true)
	svc := core.New(core.Options{Logger: quietLogger()})
	if err := localpty.Register(svc); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			f.Error(err)
		}
	})
	direct, typed := New(svc, Options{}), New(svc, Options{ShellQuoteEnv: true})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, value string, viaTyping bool) {
		s := direct
		if viaTyping {
			s = typed
		}
		owner := core.NewOwner("fuzz")
		path := filepath.Join(dir, "out")
		_ = os.Remove(path)
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		r, err := s.Open(ctx, owner, OpenRequest{
			Command: "printenv V > " + ShellQuote(path),
			Env:     map[string]string{"V": value},
		})
		if strings.IndexByte(value, 0) >= 0 {
			if core.CodeOf(err) != core.CodeInvalidArgument {
				t.Fatalf("value with NUL: %v, want INVALID_ARGUMENT", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if _, err := s.Close(context.Background(), owner, r.SessionID); err != nil {
				t.Error(err)
			}
		}()
		// The service may return before the shell ran the command (an
		// early settle): wait for printenv's single write.
		var got []byte
		for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if got, err = os.ReadFile(path); err == nil && len(got) > 0 {
				break
			}
		}
		if err != nil {
			t.Fatalf("%v (settled %s):\n%s", err, r.WaitReason, r.InitialOutput)
		}
		if string(got) != value+"\n" {
			t.Fatalf("value %q arrived as %q", value, strings.TrimSuffix(string(got), "\n"))
		}
	})
}
