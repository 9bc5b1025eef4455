package screen

import (
	"bytes"
	"fmt"
	"io"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// term is one x/vt emulator and what its callbacks reported. It is not
// safe for concurrent use; the session state's mutex guards it.
//
// The emulator writes its answers to terminal queries into a synchronous
// pipe, and a write there blocks until somebody reads it. Every use of the
// emulator therefore happens between startPump and pump.stop, with a
// goroutine reading the pipe.
type term struct {
	emu  *vt.Emulator
	size core.Size
	sane queryScanner // bounds the parameters passed to emu
	full bool         // feed every byte, leaving no text out (tests)

	title     string
	appCursor bool // DECCKM (CSI ? 1 h)
	redrawn   bool // the program switched screens since the flag was cleared

	// The normal screen as the last full-screen program found it: its
	// rows and cursor row, read when the program left the alternate
	// screen (the normal screen does not change while it is away).
	normalRows   []string
	normalCursor int
}

func newTerm(size core.Size) *term {
	t := &term{emu: vt.NewEmulator(int(size.Cols), int(size.Rows)), size: size}
	// Nothing reads the emulator's scrollback, and keeping a long one costs
	// a copy of every line that scrolls off the top.
	t.emu.SetScrollbackSize(1)
	t.emu.SetCallbacks(vt.Callbacks{
		Title: func(s string) { t.title = tools.HeadRunes(s, maxTitleBytes) },
		AltScreen: func(on bool) {
			t.redrawn = true
			if !on {
				t.normalRows, t.normalCursor = t.rows(), t.emu.CursorPosition().Y
			}
		},
		EnableMode: func(m ansi.Mode) {
			if m == ansi.ModeCursorKeys {
				t.appCursor = true
			}
		},
		DisableMode: func(m ansi.Mode) {
			if m == ansi.ModeCursorKeys {
				t.appCursor = false
			}
		},
	})
	// x/vt v0.1.0 answers the operating-status report (CSI 5 n) in the
	// DEC form "CSI ? 0 n"; terminals answer "CSI 0 n", and that is what
	// programs wait for.
	t.emu.RegisterCsiHandler('n', func(params ansi.Params) bool {
		if n, _, ok := params.Param(0, 1); ok && n == 5 && len(params) == 1 {
			_, _ = io.WriteString(t.emu.InputPipe(), "\x1b[0n")
			return true
		}
		return false
	})
	return t
}

// maxTitleBytes bounds the window title a screen keeps: a program may set
// one of any length, and it travels in every snapshot.
const maxTitleBytes = 1024

// write feeds p to the emulator. A panic inside the emulator (a bug in
// it, triggered by odd output) is returned as an error instead of taking
// the process down.
func (t *term) write(p []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("terminal emulator panicked: %v", r)
		}
	}()
	rows := int(t.size.Rows)
	if t.full {
		rows = 0
	}
	_, err = t.emu.Write(t.sane.filter(p, rows))
	return err
}

// resize changes the emulator's size.
func (t *term) resize(size core.Size) (err error) {
	if size == t.size {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("terminal emulator panicked on resize: %v", r)
		}
	}()
	t.size = size
	t.emu.Resize(int(size.Cols), int(size.Rows))
	return nil
}

// Sentinels written into the emulator's reply pipe by ptyseam itself. A
// pipe read returns bytes of exactly one write, and the emulator never
// writes these, so the pump can tell them from replies.
var (
	syncMark = []byte{0, 0xff, 's', 0}
	stopMark = []byte{0, 0xff, 'x', 0}
)

// pump reads the emulator's reply pipe on a goroutine of its own, so that
// the emulator never blocks, and hands the replies over at each sync.
type pump struct {
	t   *term
	out chan []byte
}

func startPump(t *term) *pump {
	p := &pump{t: t, out: make(chan []byte)}
	go p.run()
	return p
}

func (p *pump) run() {
	var cur []byte
	buf := make([]byte, 4096)
	for {
		n, err := p.t.emu.Read(buf)
		switch {
		case err != nil:
			p.out <- cur
			return
		case bytes.Equal(buf[:n], syncMark):
			p.out <- cur
			cur = nil
		case bytes.Equal(buf[:n], stopMark):
			p.out <- cur
			return
		default:
			cur = append(cur, buf[:n]...)
		}
	}
}

// sync returns the replies the emulator wrote since the previous sync.
func (p *pump) sync() []byte {
	_, _ = p.t.emu.InputPipe().Write(syncMark)
	return <-p.out
}

// stop ends the pump's goroutine and returns the replies not yet synced.
func (p *pump) stop() []byte {
	_, _ = p.t.emu.InputPipe().Write(stopMark)
	return <-p.out
}
