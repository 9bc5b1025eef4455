package screen

import (
	"math/rand/v2"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// genText builds a long run of coloured line output: words, SGR and EL
// sequences, mostly CR LF line ends, sometimes a lone CR or LF, tabs and
// backspaces.
func genText(rng *rand.Rand, lines, width int) []byte {
	var out []byte
	words := []string{"alpha", "b", "gamma-delta", "x", "0123456789", "long-word-that-may-wrap-around-the-screen-edge", "~"}
	sgr := []string{"\x1b[0m", "\x1b[1;31m", "\x1b[42m", "\x1b[38;5;200m", "\x1b[m", "\x1b[7m", "\x1b[K", "\x1b[2K"}
	for l := 0; l < lines; l++ {
		n := rng.IntN(width/4 + 2)
		for w := 0; w < n; w++ {
			switch rng.IntN(10) {
			case 0:
				out = append(out, sgr[rng.IntN(len(sgr))]...)
			case 1:
				out = append(out, '\t')
			case 2:
				out = append(out, '\b')
			default:
				out = append(out, words[rng.IntN(len(words))]...)
				out = append(out, ' ')
			}
		}
		switch rng.IntN(12) {
		case 0:
			out = append(out, '\n')
		case 1:
			out = append(out, '\r')
		default:
			out = append(out, '\r', '\n')
		}
	}
	return out
}

// FuzzElision checks that leaving scrolled-off text out changes nothing
// the emulator shows: the same stream, fed with and without the elision in
// random chunks, gives the same screen (text and styles) and cursor.
func FuzzElision(f *testing.F) {
	f.Add(uint64(1), []byte("\x1b[2J\x1b[5;5H"), uint8(24), []byte("tail\x1b[3Aup"))
	f.Add(uint64(2), []byte("\x1b[3;10r"), uint8(12), []byte("\x1b[r\x1b[b"))
	f.Add(uint64(3), []byte("\x1b[?69h\x1b[5;20s"), uint8(5), []byte("x\x1b[5b"))
	f.Add(uint64(4), []byte("\x1b[?1049h\x1b[4h"), uint8(1), []byte("\x1bc after reset"))
	f.Add(uint64(5), []byte("\x1b[?7l"), uint8(40), []byte("\x1b[1;1Hhome"))
	f.Fuzz(func(t *testing.T, seed uint64, prefix []byte, rows8 uint8, suffix []byte) {
		rows := int(rows8%48) + 1
		size := core.Size{Rows: uint16(rows), Cols: 80}
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		var stream []byte
		stream = append(stream, prefix...)
		stream = append(stream, genText(rng, 200+rng.IntN(400), 80)...)
		stream = append(stream, suffix...)
		stream = append(stream, genText(rng, rng.IntN(300), 80)...)

		a, b := newTerm(size), newTerm(size)
		b.full = true
		pa, pb := startPump(a), startPump(b)
		defer pa.stop()
		defer pb.stop()
		for i := 0; i < len(stream); {
			n := min(1+rng.IntN(20000), len(stream)-i)
			errA, errB := a.write(stream[i:i+n]), b.write(stream[i:i+n])
			if (errA == nil) != (errB == nil) {
				t.Fatalf("emulator failed on one side only: %v / %v", errA, errB)
			}
			if errA != nil {
				t.Skip("the emulator panicked on this input")
			}
			i += n
		}
		if ra, rb := a.emu.Render(), b.emu.Render(); ra != rb {
			t.Fatalf("screens differ\nwith elision:\n%s\nwithout:\n%s", ra, rb)
		}
		if ca, cb := a.emu.CursorPosition(), b.emu.CursorPosition(); ca != cb {
			t.Fatalf("cursor %v with elision, %v without", ca, cb)
		}
	})
}

// TestElisionLeavesTextOut checks that the elision does cut a flood of
// coloured lines, and leaves output with margins alone.
func TestElisionLeavesTextOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	text := genText(rng, 3000, 80)
	var s queryScanner
	if out := s.filter(text, 24); len(out) > len(text)/4 {
		t.Fatalf("kept %d of %d bytes", len(out), len(text))
	}
	var m queryScanner
	withMargins := append([]byte("\x1b[2;20r"), text...)
	if out := m.filter(withMargins, 24); len(out) != len(withMargins) {
		t.Fatalf("cut output with a scroll region: %d of %d bytes", len(out), len(withMargins))
	}
	var r queryScanner
	reset := append(append([]byte("\x1b[2;20r"), "\x1b[r"...), text...)
	if out := r.filter(reset, 24); len(out) > len(reset)/4 {
		t.Fatalf("margins reset, yet kept %d of %d bytes", len(out), len(reset))
	}
}
