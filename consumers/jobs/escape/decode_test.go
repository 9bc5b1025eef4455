package escape

import (
	"bytes"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{`plain text`, "plain text"},
		{``, ""},
		{`\x03`, "\x03"},
		{`\x1B[A`, "\x1b[A"},
		{`\xff`, "\xff"},
		{`\cC`, "\x03"},
		{`\cc`, "\x03"},
		{`\c[`, "\x1b"},
		{`\c@`, "\x00"},
		{`\c_`, "\x1f"},
		{`\c?`, "\x7f"},
		{`rs\n`, "rs\n"},
		{`a\r\tb`, "a\r\tb"},
		{`\e\a\0\b`, "\x1b\x07\x00\x08"},
		{`\01`, "\x001"},
		{`\\`, `\`},
		{`\\n`, `\n`},
		{`\u00e9`, "é"},
		{`\u20AC`, "€"},
		{`\ud83d\ude00`, "😀"},
		// Kept as written, never dropped.
		{`\q`, `\q`},
		{`\x`, `\x`},
		{`\x3`, `\x3`},
		{`\xZ1`, `\xZ1`},
		{`\c`, `\c`},
		{`\c1`, `\c1`},
		{`\u12`, `\u12`},
		{`\uZZZZ`, `\uZZZZ`},
		{`\ud83d`, `\ud83d`},
		{`\ud83dx`, `\ud83dx`},
		{`\ude00`, `\ude00`},
		{`\ud83d\u0041`, `\ud83dA`},
		{`end\`, `end\`},
		{`\`, `\`},
		{`\\\q`, `\\q`},
	}
	for _, c := range cases {
		if got := string(Decode(c.in)); got != c.want {
			t.Errorf("Decode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDescribeRoundTrip(t *testing.T) {
	cases := map[string]string{
		"rs\n":          `rs\n`,
		"\x03":          `\x03`,
		"\x7f":          `\c?`,
		"\x1b[A":        `\e[A`,
		`a\b`:           `a\\b`,
		"\x00\xff":      `\0\xff`,
		"é €":           "é €",
		"\u200b":        `\u200b`,
		"\U000e0001":    `\xf3\xa0\x80\x81`,
		"tab\tbell\a\b": `tab\tbell\a\b`,
		"\r\n":          `\r\n`,
	}
	for in, want := range cases {
		got := Describe([]byte(in))
		if got != want {
			t.Errorf("Describe(%q) = %q, want %q", in, got, want)
		}
		if back := Decode(got); !bytes.Equal(back, []byte(in)) {
			t.Errorf("Decode(Describe(%q)) = %q", in, back)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`\x03`, `\cC\c?`, `\ud83d\ude00`, `\u12`, `\q\`, "plain", `\e[A\r\n`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Decode(s)
		if len(out) > len(s) {
			t.Fatalf("Decode(%q) grew to %d bytes", s, len(out))
		}
		if !strings.Contains(s, `\`) && string(out) != s {
			t.Fatalf("Decode(%q) changed text without escapes: %q", s, out)
		}
		// Every input is also a byte string Describe must round-trip.
		if back := Decode(Describe([]byte(s))); !bytes.Equal(back, []byte(s)) {
			t.Fatalf("Decode(Describe(%q)) = %q", s, back)
		}
		if back := Decode(Describe(out)); !bytes.Equal(back, out) {
			t.Fatalf("Decode(Describe(%q)) = %q", out, back)
		}
	})
}
