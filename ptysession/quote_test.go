package ptysession

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// ShellQuote's cases are internal/shellquote's (TestQuote): it forwards.

func TestQuoteEnvShapes(t *testing.T) {
	st, err := QuoteEnv("NAME", "it's fine")
	if err != nil || st != `export NAME='it'\''s fine'` {
		t.Fatalf("printable value: %s %v", st, err)
	}
	st, err = QuoteEnv("N", "a\tb%\\'é")
	if err != nil || st != `N=$(printf 'a\011b%%\\\047\303\251'); export N` {
		t.Fatalf("control value: %s %v", st, err)
	}
	if st, _ := QuoteEnv("N", "-n\t\n\n"); st != "N=$(printf '\\055n\\011')'\n\n'; export N" {
		t.Fatalf("leading dash and trailing newlines: %q", st)
	}
	for _, st := range []string{st} {
		for i := 0; i < len(st); i++ {
			if st[i] < 0x20 || st[i] > 0x7e {
				t.Fatalf("statement %q holds a byte a terminal would act on", st)
			}
		}
	}
	if _, err := QuoteEnv("1X", "v"); core.CodeOf(err) != core.CodeInvalidArgument {
		t.Fatalf("bad name: %v", err)
	}
	if _, err := QuoteEnv("X", "a\x00b"); core.CodeOf(err) != core.CodeInvalidArgument {
		t.Fatalf("NUL value: %v", err)
	}
	line, err := ExportLine(map[string]string{"B": "2", "A": "1"})
	if err != nil || line != "export A='1'; export B='2'" {
		t.Fatalf("ExportLine = %q %v", line, err)
	}
	if line, err := ExportLine(nil); err != nil || line != "" {
		t.Fatalf("ExportLine(nil) = %q %v", line, err)
	}
}

// shellPrintenv runs script in shell (non-interactively) and returns what
// printenv V printed, without its newline.
func shellPrintenv(t *testing.T, shell, script string) string {
	t.Helper()
	cmd := exec.Command(shell, "-c", script+"\nprintenv V")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s -c %q: %v: %s", shell, script, err, errb.String())
	}
	return strings.TrimSuffix(out.String(), "\n")
}

func FuzzShellQuote(f *testing.F) {
	for _, v := range envValues {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.IndexByte(v, 0) >= 0 {
			return // no shell word holds NUL; QuoteEnv rejects it
		}
		for _, sh := range []string{"bash", "sh"} {
			if got := shellPrintenv(t, sh, "export V="+ShellQuote(v)); got != v {
				t.Fatalf("%s: ShellQuote(%q) gave %q", sh, v, got)
			}
		}
	})
}

func FuzzQuoteEnv(f *testing.F) {
	for _, v := range envValues {
		f.Add(v)
	}
	f.Add("nul\x00")
	f.Fuzz(func(t *testing.T, v string) {
		st, err := QuoteEnv("V", v)
		if strings.IndexByte(v, 0) >= 0 {
			if core.CodeOf(err) != core.CodeInvalidArgument {
				t.Fatalf("NUL: %v, want INVALID_ARGUMENT", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(st); i++ {
			if (st[i] < 0x20 || st[i] > 0x7e) && st[i] != '\n' {
				t.Fatalf("QuoteEnv(%q) = %q holds a byte a terminal would act on", v, st)
			}
		}
		for _, sh := range []string{"bash", "sh"} {
			if got := shellPrintenv(t, sh, st); got != v {
				t.Fatalf("%s: QuoteEnv(%q) = %s gave %q", sh, v, st, got)
			}
		}
	})
}
