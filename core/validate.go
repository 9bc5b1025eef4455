package core

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ValidEnvName reports whether name matches [A-Za-z_][A-Za-z0-9_]*.
func ValidEnvName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// Bounds of a session's environment ([SpawnRequest].Env), as the kernel
// counts it at exec (each NAME=VALUE and its NUL terminator).
const (
	// MaxEnvVarBytes bounds one NAME=VALUE entry: Linux refuses a longer
	// one (MAX_ARG_STRLEN, 32 pages, with the NUL).
	MaxEnvVarBytes = 128<<10 - 1
	// MaxEnvBytes bounds all entries together, half of what exec takes
	// under the usual 8 MiB stack limit, leaving the command line and the
	// variables a backend adds room.
	MaxEnvBytes = 1 << 20
)

// MaxPathBytes bounds the program's name ([SpawnRequest].Command[0]) and
// its directory: Linux resolves no longer path (PATH_MAX, with the NUL).
const MaxPathBytes = 4095

// ValidateEnv checks NAME=VALUE entries: valid names, no NUL anywhere, no
// name twice, at most [MaxEnvVarBytes] an entry and [MaxEnvBytes] in all.
// It returns an INVALID_ARGUMENT *Error naming the entry.
func ValidateEnv(env []string) error {
	seen := make(map[string]bool, len(env))
	total := 0
	for i, kv := range env {
		total += len(kv) + 1
		if len(kv) > MaxEnvVarBytes {
			name, _, _ := strings.Cut(kv, "=")
			return Errorf(CodeInvalidArgument, "env[%d]: %s is %d bytes as NAME=VALUE, over the %d one variable may hold (the kernel's limit): pass large data in a file", i, QuoteForMsg(name), len(kv), MaxEnvVarBytes)
		}
		if total > MaxEnvBytes {
			return Errorf(CodeInvalidArgument, "env: %d variables take more than %d bytes: pass large data in a file", len(env), MaxEnvBytes)
		}
		name, _, ok := strings.Cut(kv, "=")
		if !ok {
			return Errorf(CodeInvalidArgument, "env[%d]: %s is not NAME=VALUE", i, QuoteForMsg(kv))
		}
		if !ValidEnvName(name) {
			return Errorf(CodeInvalidArgument, "env[%d]: invalid variable name %s (want [A-Za-z_][A-Za-z0-9_]*)", i, QuoteForMsg(name))
		}
		if strings.IndexByte(kv, 0) >= 0 {
			return Errorf(CodeInvalidArgument, "env[%d]: the value of %s contains a NUL byte", i, name)
		}
		if seen[name] {
			return Errorf(CodeInvalidArgument, "env[%d]: %s is set twice", i, name)
		}
		seen[name] = true
	}
	return nil
}

// maxNameBytes bounds a session's display name.
const maxNameBytes = 256

// ValidateName checks a session's display name: at most 256 bytes of UTF-8
// text on one line (no NUL, CR or LF). It returns an INVALID_ARGUMENT
// *Error.
func ValidateName(name string) error {
	if len(name) > maxNameBytes || !utf8.ValidString(name) || strings.ContainsAny(name, "\x00\n\r") {
		return Errorf(CodeInvalidArgument, "name must be at most %d bytes of UTF-8 text on one line", maxNameBytes)
	}
	return nil
}

func validateSpawn(req *SpawnRequest) error {
	if req.Type == "" {
		req.Type = "shell"
	}
	if err := ValidateName(req.Name); err != nil {
		return err
	}
	for i, a := range req.Command {
		if strings.IndexByte(a, 0) >= 0 {
			return Errorf(CodeInvalidArgument, "command[%d] contains a NUL byte", i)
		}
	}
	if len(req.Command) > 0 && len(req.Command[0]) > MaxPathBytes {
		return Errorf(CodeInvalidArgument, "command[0]: a program name of %d bytes; a path holds at most %d (PATH_MAX): name the program, and give its arguments apart", len(req.Command[0]), MaxPathBytes)
	}
	if strings.IndexByte(req.Dir, 0) >= 0 {
		return Errorf(CodeInvalidArgument, "dir contains a NUL byte")
	}
	if len(req.Dir) > MaxPathBytes {
		return Errorf(CodeInvalidArgument, "dir: %d bytes; a path holds at most %d (PATH_MAX)", len(req.Dir), MaxPathBytes)
	}
	if err := ValidateEnv(req.Env); err != nil {
		return err
	}
	if req.Size == (Size{}) {
		req.Size = DefaultSize
	}
	if err := validateSize(req.Size); err != nil {
		return err
	}
	l := req.Scrollback
	if l.MaxLines < 0 || l.MaxBytes < 0 || l.MaxLineBytes < 0 {
		return Errorf(CodeInvalidArgument, "scrollback limits must not be negative")
	}
	return nil
}

// MaxDimension bounds terminal rows and columns (1 to MaxDimension each):
// every layer that takes a size checks it against this one bound.
const MaxDimension = 4096

func validateSize(sz Size) error {
	if sz.Rows == 0 || sz.Cols == 0 || sz.Rows > MaxDimension || sz.Cols > MaxDimension {
		return Errorf(CodeInvalidArgument, "terminal size %dx%d out of range (1..%d)", sz.Rows, sz.Cols, MaxDimension)
	}
	return nil
}

// QuoteForMsg returns s quoted for an error message: at most its first 64
// bytes, as valid UTF-8, Go-quoted (control characters escaped).
func QuoteForMsg(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return strconv.Quote(strings.ToValidUTF8(s, "\uFFFD"))
}
