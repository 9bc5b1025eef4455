package conpty

import (
	"errors"
	"slices"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestLineEndsBecomeCR(t *testing.T) {
	cases := []struct {
		in   []string // successive writes
		want []string
	}{
		{[]string{"echo hi\n"}, []string{"echo hi\r"}},
		{[]string{"a\r\nb\n"}, []string{"a\rb\r"}},
		{[]string{"a\r", "\nb"}, []string{"a\r", "b"}},
		{[]string{"\n\n"}, []string{"\r\r"}},
		{[]string{"\r\r\n"}, []string{"\r\r"}},
		{[]string{"no end"}, []string{"no end"}},
		{[]string{"\x03"}, []string{"\x03"}},
	}
	for _, c := range cases {
		var l lineEnds
		for i, in := range c.in {
			out, src := l.translate([]byte(in))
			if string(out) != c.want[i] {
				t.Errorf("%q write %d: got %q, want %q", c.in, i, out, c.want[i])
			}
			if len(out) > 0 && consumed(src, len(out)) != len(in) {
				t.Errorf("%q write %d: all output consumed %d input bytes, want %d", c.in, i, consumed(src, len(out)), len(in))
			}
		}
	}
}

func TestShortWriteCountsInputBytes(t *testing.T) {
	var l lineEnds
	in := []byte("ab\r\ncd\n")
	out, src := l.translate(in)
	if string(out) != "ab\rcd\r" {
		t.Fatalf("got %q", out)
	}
	// Output bytes written -> input bytes consumed: the "\n" of the
	// "\r\n" pair goes with its "\r".
	for k, want := range []int{0, 1, 2, 4, 5, 6, 7} {
		if got := consumed(src, k); got != want {
			t.Errorf("consumed(%d) = %d, want %d", k, got, want)
		}
	}
}

func TestMergeEnvReplacesByNameIgnoringCase(t *testing.T) {
	base := []string{"Path=C:\\Windows", "=C:=C:\\", "HOME=x"}
	got := mergeEnv(base, []string{"PATH=D:\\bin", "NEW=1", "bad"}, []string{"new=2"})
	want := []string{"PATH=D:\\bin", "=C:=C:\\", "HOME=x", "new=2"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if base[0] != "Path=C:\\Windows" {
		t.Fatalf("base changed: %q", base)
	}
}

type fakeRegistrar struct {
	types  []string
	failOn string
	undone []string
}

func (f *fakeRegistrar) Register(b core.Backend) (func(), error) {
	if b.Type() == f.failOn {
		return nil, core.Errorf(core.CodeDuplicateBackend, "%s taken", b.Type())
	}
	f.types = append(f.types, b.Type())
	typ := b.Type()
	return func() { f.undone = append(f.undone, typ) }, nil
}

func TestRegisterBothTypesOrNone(t *testing.T) {
	var ok fakeRegistrar
	if err := Register(&ok); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ok.types, []string{TypeShell, TypeExec}) {
		t.Fatalf("registered %q", ok.types)
	}
	bad := fakeRegistrar{failOn: TypeExec}
	if err := Register(&bad); !errors.Is(err, core.ErrDuplicateBackend) {
		t.Fatalf("err = %v", err)
	}
	if !slices.Equal(bad.undone, []string{TypeShell}) {
		t.Fatalf("undone %q, want the shell registration undone", bad.undone)
	}
}

func TestArgvNeedsACommandForExec(t *testing.T) {
	if _, err := NewExec(ExecOptions{}).argv(core.BackendRequest{}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("exec without a command: %v", err)
	}
	argv, err := NewShell(ShellOptions{}).argv(core.BackendRequest{})
	if err != nil || !slices.Equal(argv, DefaultShell) {
		t.Fatalf("shell default: %q %v", argv, err)
	}
	if _, err := NewShell(ShellOptions{}).argv(core.BackendRequest{Command: []string{""}}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("empty program name: %v", err)
	}
}
