package core

import (
	"slices"
	"strings"
	"testing"
)

func TestForPythonConsole(t *testing.T) {
	for _, c := range []struct {
		name, data, want string
		ok               bool
		fresh            bool // at ">>> "
	}{
		{"a blank line in a body", "def f(x):\n    y = x\n\n    return y\n\nf(1)", "def f(x):\n    y = x\n    return y\n\nf(1)", true, false},
		{"between methods", "class A:\n    def m(self):\n        pass\n\n\n    def n(self):\n        pass\n", "class A:\n    def m(self):\n        pass\n    def n(self):\n        pass\n", true, false},
		{"blank lines of whitespace", "if x:\n    a\n  \t\n    b", "if x:\n    a\n    b", true, false},
		{"before the next clause", "try:\n    1/0\n\nexcept ZeroDivisionError:\n    pass\n\nelse:\n    pass\n\nx = 1", "try:\n    1/0\nexcept ZeroDivisionError:\n    pass\nelse:\n    pass\n\nx = 1", true, false},
		{"a name that begins as a clause", "if x:\n    a\n\nelsewhere = 1", "if x:\n    a\n\nelsewhere = 1", false, false},
		{"the block's end stays", "def f():\n    return 1\n\nf()", "def f():\n    return 1\n\nf()", false, false},
		{"a block's end is added", "for i in range(2):\n    print(i)\nprint('done')", "for i in range(2):\n    print(i)\n\nprint('done')", true, false},
		{"and before a decorator", "class A:\n    x = 1\n@dec\ndef f():\n    pass", "class A:\n    x = 1\n\n@dec\ndef f():\n    pass", true, false},
		{"not before a closing bracket", "x = [\n    1,\n]\ny = 2", "x = [\n    1,\n]\ny = 2", false, false},
		{"nor before the next clause", "if x:\n    a\nelse:\n    b", "if x:\n    a\nelse:\n    b", false, false},
		{"one line", "6*7", "6*7", false, false},
		{"a docstring's blank line is its text", "def f():\n    \"\"\"One.\n\n    Two.\"\"\"\n\n    return 1", "def f():\n    \"\"\"One.\n\n    Two.\"\"\"\n\n    return 1", false, false},
		{"a template literal's", "function f() {\n  return `a\n\n  b`;\n}", "function f() {\n  return `a\n\n  b`;\n}", false, false},
		{"keys", "\x1b[A\n\n  x", "\x1b[A\n\n  x", false, false},
		// At ">>> ", data that ends inside a block it opened ends it.
		{"a loop at >>>", "for i in range(2):\n    print(i)", "for i in range(2):\n    print(i)\n", true, true},
		{"with its else", "if x:\n    a\nelse:\n    b", "if x:\n    a\nelse:\n    b\n", true, true},
		{"ended already", "for i in range(2):\n    print(i)\n", "for i in range(2):\n    print(i)\n", false, true},
		{"one line at >>>", "6*7", "6*7", false, true},
		{"a block's end added inside too", "if x:\n    a\nb = 1\nif b:\n    c", "if x:\n    a\n\nb = 1\nif b:\n    c\n", true, true},
	} {
		got, ok := forPythonConsole(c.data, c.fresh)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: forPythonConsole(%q, %v) = %q, %v; want %q, %v", c.name, c.data, c.fresh, got, ok, c.want, c.ok)
		}
	}
}

// forPythonConsole only leaves out or adds blank lines, and keeps data
// as it is when it says so.
func FuzzForPythonConsole(f *testing.F) {
	f.Add("def f(x):\n    y = x\n\n    return y\n\nf(1)", true)
	f.Add("if x:\n    a\nelse:\n    b", false)
	f.Add("x = [\n    1,\n]\ny = 2", true)
	f.Fuzz(func(t *testing.T, data string, fresh bool) {
		got, ok := forPythonConsole(data, fresh)
		if !ok {
			if got != data {
				t.Fatalf("not ok, yet %q became %q", data, got)
			}
			return
		}
		if a, b := nonBlankLines(data), nonBlankLines(got); !slices.Equal(a, b) {
			t.Fatalf("%q became %q: its other lines changed", data, got)
		}
	})
}

// nonBlankLines returns the lines of s that are not blank.
func nonBlankLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !blank(l) {
			out = append(out, l)
		}
	}
	return out
}

func TestEndsInsideBlockAndFreshPrompts(t *testing.T) {
	for data, want := range map[string]bool{
		"for i in x:\n    print(i)":   true,
		"for i in x:\n\tprint(i)":     true,
		"for i in x:\n    print(i)\n": false,
		"def f():\n    pass\n\nf()":   false,
		"6*7":                         false,
		"x = [\n    1,\n]":            false,
	} {
		if got := endsInsideBlock(data); got != want {
			t.Errorf("endsInsideBlock(%q) = %v, want %v", data, got, want)
		}
	}
	for prompt, want := range map[string]bool{">>> ": true, "In [12]: ": true, "In [3]:": true, "... ": false, "   ...: ": false, "> ": false, ">>>": false} {
		if got := freshPrompts.MatchString(prompt); got != want {
			t.Errorf("freshPrompts %q: %v, want %v", prompt, got, want)
		}
	}
}
