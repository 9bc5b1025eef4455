package pattern

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestFloodLineRoundTrip(t *testing.T) {
	for _, i := range []int{0, 7, 42, 999_999, 1_000_000} {
		n, ok := ParseFloodLine(FloodLine(i))
		if !ok || n != i {
			t.Errorf("ParseFloodLine(FloodLine(%d)) = %d, %v", i, n, ok)
		}
	}
	for _, bad := range []string{"", "flood ", "flood 12 the quick brown fox jumps over the lazy dog", FloodLine(3) + " ", "x" + FloodLine(3), "flood -00001 the quick brown fox jumps over the lazy dog"} {
		if n, ok := ParseFloodLine(bad); ok {
			t.Errorf("ParseFloodLine(%q) = %d, true; want false", bad, n)
		}
	}
}

func TestBurstShape(t *testing.T) {
	b := Burst(200)
	if len(b) != 200 {
		t.Fatalf("len = %d", len(b))
	}
	lines := strings.Split(string(b), "\n")
	if lines[0] != "00000000 JKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789A" || !strings.HasPrefix(lines[1], "00000001 KLM") {
		t.Errorf("unexpected lines %q", lines[:2])
	}
	if len(Burst(0)) != 0 || len(Burst(-1)) != 0 {
		t.Error("Burst of no bytes is not empty")
	}
}

func TestVerifyBurstAcceptsTerminalOutput(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 10_000} {
		out := append(Burst(n), BurstTrailer(n)...)
		tty := bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
		for _, o := range [][]byte{out, tty} {
			got, err := VerifyBurst(o)
			if err != nil || got != n {
				t.Errorf("n=%d: VerifyBurst = %d, %v", n, got, err)
			}
		}
	}
}

func TestVerifyBurstRejects(t *testing.T) {
	good := append(Burst(5000), BurstTrailer(5000)...)
	cases := map[string][]byte{
		"missing byte":  append(append([]byte{}, good[:100]...), good[101:]...),
		"changed byte":  bytes.Replace(good, []byte("00000003 M"), []byte("00000003 X"), 1),
		"no trailer":    Burst(5000),
		"cut trailer":   good[:len(good)-3],
		"repeated line": append(append(append([]byte{}, good[:64]...), good[:64]...), good[64:]...),
		"empty":         nil,
		"wrong count":   append(Burst(5000), BurstTrailer(4999)...),
		"trailing junk": append(append([]byte{}, good...), "x"...),
		"banner":        append([]byte("welcome\n"), good...),
	}
	for name, out := range cases {
		if _, err := VerifyBurst(out); !errors.Is(err, ErrBurst) {
			t.Errorf("%s: VerifyBurst error = %v, want ErrBurst", name, err)
		}
	}
}

func FuzzVerifyBurst(f *testing.F) {
	f.Add([]byte("00000000 JKL\nburst-end bytes=12 crc32=00000000\n"))
	f.Add(append(Burst(130), BurstTrailer(130)...))
	f.Add([]byte("\nburst-end bytes=99999999999999 crc32=1\n00000000 "))
	f.Fuzz(func(t *testing.T, out []byte) {
		n, err := VerifyBurst(out)
		if err != nil {
			if !errors.Is(err, ErrBurst) {
				t.Fatalf("error %v does not wrap ErrBurst", err)
			}
			return
		}
		// Accepted output must contain the exact pattern and trailer.
		norm := bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
		if !bytes.Equal(norm, append(Burst(n), BurstTrailer(n)...)) {
			t.Fatalf("accepted output that does not end with the %d-byte burst", n)
		}
	})
}

func FuzzParseFloodLine(f *testing.F) {
	f.Add(FloodLine(12))
	f.Add("flood 0000000000001 the quick brown fox jumps over the lazy dog")
	f.Fuzz(func(t *testing.T, line string) {
		n, ok := ParseFloodLine(line)
		if ok && FloodLine(n) != line {
			t.Fatalf("ParseFloodLine(%q) = %d but FloodLine(%d) = %q", line, n, n, FloodLine(n))
		}
	})
}
