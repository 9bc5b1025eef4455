package conpty

import (
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Backend type strings (the same as core/localpty's).
const (
	TypeShell = "shell"
	TypeExec  = "exec"
)

// MarkerEnv is the environment variable every process of a session
// inherits, set to the request's marker (the same as core/localpty's).
const MarkerEnv = "PTYSEAM_SESSION"

// DefaultShell is the shell argv of the "shell" type.
var DefaultShell = []string{"cmd.exe"}

// DefaultDrainWindow is how long the output must be quiet after the
// top-level process exited before the pseudo console is closed and Read
// reports io.EOF.
const DefaultDrainWindow = 100 * time.Millisecond

// Options are the settings both backend types share. The zero value is
// usable.
type Options struct {
	// DrainWindow: see [DefaultDrainWindow], the default.
	DrainWindow time.Duration
	// Logger receives structured logs (pids, teardown steps; never
	// terminal bytes). Default slog.Default().
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.DrainWindow <= 0 {
		o.DrainWindow = DefaultDrainWindow
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// ShellOptions configure the "shell" backend type.
type ShellOptions struct {
	Options
	// Shell is the shell argv. Default DefaultShell. A request's non-empty
	// Command replaces it.
	Shell []string
}

// ExecOptions configure the "exec" backend type.
type ExecOptions struct {
	Options
}

// Backend is a ConPTY backend of type "shell" or "exec".
type Backend struct {
	typ   string
	opts  Options
	shell []string
}

// NewShell returns the "shell" backend: an interactive shell (by default
// cmd.exe). A request's non-empty Command replaces the shell argv.
func NewShell(o ShellOptions) *Backend {
	sh := o.Shell
	if len(sh) == 0 {
		sh = DefaultShell
	}
	return &Backend{typ: TypeShell, opts: o.Options.withDefaults(), shell: slices.Clone(sh)}
}

// NewExec returns the "exec" backend: the request's Command (argv, which
// must not be empty) runs directly on the pseudo console.
func NewExec(o ExecOptions) *Backend {
	return &Backend{typ: TypeExec, opts: o.Options.withDefaults()}
}

// Register registers a "shell" and an "exec" backend with default options.
// If the second registration fails, the first is undone.
func Register(svc core.Registrar) error {
	return core.RegisterAll(svc, NewShell(ShellOptions{}), NewExec(ExecOptions{}))
}

// Type returns "shell" or "exec".
func (b *Backend) Type() string { return b.typ }

// argv returns the program to run for req, or an INVALID_ARGUMENT error.
func (b *Backend) argv(req core.BackendRequest) ([]string, error) {
	argv := req.Command
	if len(argv) == 0 {
		if b.typ != TypeShell {
			return nil, core.Errorf(core.CodeInvalidArgument, "the exec backend needs a command")
		}
		argv = b.shell
	}
	if argv[0] == "" {
		return nil, core.Errorf(core.CodeInvalidArgument, "empty program name")
	}
	return argv, nil
}

// mergeEnv returns base with each NAME=VALUE of the extra lists set in
// order, a later entry replacing an earlier one of the same name. Names
// compare case-insensitively, as Windows compares them; entries whose name
// starts with "=" (the per-drive directories cmd.exe keeps) are kept as
// they are.
func mergeEnv(base []string, extra ...[]string) []string {
	out := slices.Clone(base)
	index := make(map[string]int, len(out))
	for i, kv := range out {
		if name, ok := envName(kv); ok {
			index[strings.ToUpper(name)] = i
		}
	}
	for _, list := range extra {
		for _, kv := range list {
			name, ok := envName(kv)
			if !ok {
				continue
			}
			key := strings.ToUpper(name)
			if i, dup := index[key]; dup {
				out[i] = kv
				continue
			}
			index[key] = len(out)
			out = append(out, kv)
		}
	}
	return out
}

// envName returns the name of a NAME=VALUE entry; ok is false for an
// entry without one.
func envName(kv string) (name string, ok bool) {
	i := strings.IndexByte(kv, '=')
	if i <= 0 {
		return "", false
	}
	return kv[:i], true
}

// lineEnds turns the input a caller writes into what the console's line
// input expects: "\n" becomes "\r", and a "\r\n" pair becomes one "\r" (so
// that a caller writing Windows line ends does not type Enter twice). A
// pair split across two writes is recognised through cr, which holds
// whether the previous write ended in "\r".
type lineEnds struct {
	cr bool
}

// translate returns p with its line ends turned; src[i] is the index in p
// just past the input byte out[i] came from, so that a short write of k
// output bytes consumed src[k-1] input bytes.
func (l *lineEnds) translate(p []byte) (out []byte, src []int) {
	out = make([]byte, 0, len(p))
	src = make([]int, 0, len(p))
	for i, c := range p {
		switch {
		case c == '\n' && l.cr:
			// The "\r" before it was Enter already; the "\n" is dropped,
			// and counts as consumed with the byte before it.
			if len(src) > 0 {
				src[len(src)-1] = i + 1
			}
			l.cr = false
			continue
		case c == '\n':
			c = '\r'
			l.cr = false
		default:
			l.cr = c == '\r'
		}
		out = append(out, c)
		src = append(src, i+1)
	}
	return out, src
}

// consumed returns how many input bytes the first k output bytes of a
// translation came from.
func consumed(src []int, k int) int {
	if k <= 0 {
		return 0
	}
	return src[k-1]
}
