package ptysession

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

var splitCases = []struct {
	in   string
	want []string
}{
	{"", nil},
	{"  \t\n ", nil},
	{"python3 -q", []string{"python3", "-q"}},
	{"  a   b  ", []string{"a", "b"}},
	{`a'b c'd`, []string{"ab cd"}},
	{`'' ""`, []string{"", ""}},
	{`"a \"b\" \$c \\ \x"`, []string{`a "b" $c \ \x`}},
	{`a\ b c\\d \'e`, []string{"a b", `c\d`, "'e"}},
	{"line\\\ncontinued", []string{"linecontinued"}},
	{"\"dq\\\nnl\"", []string{"dqnl"}},
	{`'it'\''s'`, []string{"it's"}},
	{`$HOME *.go ~ a|b;c`, []string{"$HOME", "*.go", "~", "a|b;c"}},
	{"é日本 🙂", []string{"é日本", "🙂"}},
	{`"'single' inside"`, []string{"'single' inside"}},
	{`'"double" inside'`, []string{`"double" inside`}},
}

func TestSplitCommand(t *testing.T) {
	for _, c := range splitCases {
		got, err := SplitCommand(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`'open`, `"open`, `a\`, `"a\"`, "a\x00b", `a 'b" c`} {
		if _, err := SplitCommand(bad); core.CodeOf(err) != core.CodeInvalidArgument {
			t.Errorf("SplitCommand(%q) = %v, want INVALID_ARGUMENT", bad, err)
		}
	}
}

// TestSplitCommandAgreesWithShell compares the splitter with a real POSIX
// shell on the cases free of expansions.
func TestSplitCommandAgreesWithShell(t *testing.T) {
	for _, c := range splitCases {
		if strings.ContainsAny(c.in, "$*~|;`") {
			continue
		}
		for _, sh := range []string{"bash", "sh"} {
			cmd := exec.Command(sh, "-c", `eval "set -- $1"; for a in "$@"; do printf '%s\0' "$a"; done`, "x", c.in)
			var out bytes.Buffer
			cmd.Stdout = &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: %v", sh, err)
			}
			var got []string
			if out.Len() > 0 {
				got = strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s splits %q as %q, SplitCommand as %q", sh, c.in, got, c.want)
			}
		}
	}
}

func TestJoinCommand(t *testing.T) {
	args := []string{"python3", "-c", "print('hi')", "", "a b", "$X", "é"}
	j := JoinCommand(args)
	if j != `python3 -c 'print('\''hi'\'')' '' 'a b' '$X' 'é'` {
		t.Fatalf("JoinCommand = %s", j)
	}
	got, err := SplitCommand(j)
	if err != nil || !slices.Equal(got, args) {
		t.Fatalf("round trip: %q %v", got, err)
	}
}

// FuzzSplitCommand: the splitter never panics, and what it splits joins
// back (JoinCommand) into a command that splits the same way.
func FuzzSplitCommand(f *testing.F) {
	for _, c := range splitCases {
		f.Add(c.in)
	}
	f.Add(`unterminated 'quote`)
	f.Add(`trailing\`)
	f.Fuzz(func(t *testing.T, s string) {
		args, err := SplitCommand(s)
		if err != nil {
			if core.CodeOf(err) != core.CodeInvalidArgument {
				t.Fatalf("error without INVALID_ARGUMENT: %v", err)
			}
			return
		}
		again, err := SplitCommand(JoinCommand(args))
		if err != nil || !slices.Equal(again, args) {
			t.Fatalf("SplitCommand(JoinCommand(%q)) = %q, %v", args, again, err)
		}
	})
}
