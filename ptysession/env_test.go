package ptysession

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// envValues are values that trip up quoting, terminals and line editors.
var envValues = []string{
	"plain",
	"",
	"two words",
	"it's",
	`say "hi"`,
	"$HOME and ${PATH}",
	"`id` and $(id)",
	`back\slash\`,
	"new\nline",
	"trailing newlines\n\n",
	"\ttab\tseparated",
	"100% %s %%",
	"é日本🙂",
	"!! history !$",
	"ctrl \x01\x03\x04\x07\x15\x16\x1a\x1c\x7f",
	"escape \x1b[31mred\x1b[0m",
	"carriage\rreturn",
	"\xff\xfe not UTF-8",
	"*?[glob] ~user {a,b}",
	"; exit 1; '",
	strings.Repeat("long value ", 400),
}

// printenvCommand returns a shell command that writes the variable to a
// file, and the file.
func printenvCommand(t *testing.T) (string, string) {
	path := filepath.Join(t.TempDir(), "out")
	return "printenv PTYSEAM_TEST_VALUE > " + ShellQuote(path), path
}

// checkEnvReaches opens a session that runs printenv and checks the value
// arrived byte-exact.
func checkEnvReaches(t *testing.T, s *Sessions, value string) {
	t.Helper()
	owner := core.NewOwner("env")
	cmd, path := printenvCommand(t)
	r := shellOpen(t, s, owner, OpenRequest{Command: cmd, Env: map[string]string{"PTYSEAM_TEST_VALUE": value, "OTHER_VAR": "x'y"}})
	got, err := os.ReadFile(path)
	if err != nil {
		pg, _ := s.Read(testCtx(t), owner, r.SessionID, ReadRequest{Count: 100})
		t.Fatalf("value %q: %v\nopen: %+v\nscrollback:\n%s", value, err, r, pg.Text)
	}
	if string(got) != value+"\n" {
		t.Fatalf("value %q arrived as %q", value, strings.TrimSuffix(string(got), "\n"))
	}
}

func TestEnvReachesProgramByteExact(t *testing.T) {
	for _, mode := range []struct {
		name string
		opts Options
	}{
		{"direct", Options{}},
		{"typed", Options{ShellQuoteEnv: true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			forEachSeam(t, mode.opts, func(t *testing.T, s *Sessions) {
				for _, v := range envValues {
					checkEnvReaches(t, s, v)
				}
			})
		})
	}
}

func TestEnvExecBackend(t *testing.T) {
	forEachSeam(t, Options{Backend: "exec"}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("env")
		path := filepath.Join(t.TempDir(), "out")
		for _, v := range envValues {
			r := mustOpen(t, s, owner, OpenRequest{
				Command: JoinCommand([]string{"sh", "-c", `printenv V > "$1"`, "sh", path}),
				Env:     map[string]string{"V": v},
			})
			waitExited(t, s, owner, r.SessionID)
			got, err := os.ReadFile(path)
			if err != nil || string(got) != v+"\n" {
				t.Fatalf("value %q arrived as %q (%v)", v, got, err)
			}
		}
	})
}

// TestEnvOverTheKernelsLimitIsAnArgumentError opens a shell with one
// variable longer than exec takes, directly and typed as an export: the
// open fails as INVALID_ARGUMENT naming the limit, not as a failed spawn
// (direct) or a typed line the send limit refuses (typed), and no session
// is left.
func TestEnvOverTheKernelsLimitIsAnArgumentError(t *testing.T) {
	for _, opts := range []Options{{}, {ShellQuoteEnv: true}} {
		forEachSeam(t, opts, func(t *testing.T, s *Sessions) {
			owner := core.NewOwner("env")
			_, err := s.Open(testCtx(t), owner, OpenRequest{Command: "bash", Env: map[string]string{"BIG": strings.Repeat("x", 200_000)}})
			if CodeOf(err) != core.CodeInvalidArgument || !strings.Contains(err.Error(), "131071") {
				t.Fatalf("open: %v, want INVALID_ARGUMENT naming the limit", err)
			}
			if l, err := s.List(testCtx(t), owner); err != nil || len(l.Sessions) != 0 {
				t.Fatalf("sessions left: %+v %v", l, err)
			}
		})
	}
}
