package keys

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
)

// KeyError reports a key name that has no encoding: an unknown name, or a
// modifier combination no terminal sends (such as "C-Enter").
type KeyError struct {
	// Index is the position of the name in the list given to Encode.
	Index int
	// Name is the key name as given.
	Name string
	// Reason says what is wrong with it.
	Reason string
}

// Error implements error.
func (e *KeyError) Error() string {
	name := e.Name
	if len(name) > 64 {
		name = name[:64] + "..."
	}
	return "key " + strconv.Quote(name) + ": " + e.Reason
}

// Known returns the key names Encode understands besides single characters
// and modifier prefixes, for messages and tool descriptions.
func Known() []string {
	l := []string{
		"Enter", "Tab", "Backspace", "Escape", "Space", "Up", "Down", "Left", "Right",
		"Home", "End", "PageUp", "PageDown", "Insert", "Delete", "BackTab",
	}
	for i := 1; i <= 12; i++ {
		l = append(l, "F"+strconv.Itoa(i))
	}
	return l
}

// Encode returns the bytes a terminal sends for the named keys, in order.
// appCursor tells whether the program turned on application-cursor mode
// (DECCKM), which changes the arrows, Home and End. An empty list encodes
// to nothing. A name that cannot be encoded makes Encode fail with a
// *core.Error of code INVALID_ARGUMENT that names it and wraps a
// [*KeyError].
func Encode(names []string, appCursor bool) ([]byte, error) {
	var out []byte
	for i, name := range names {
		b, reason := encodeOne(name, appCursor)
		if reason != "" {
			ke := &KeyError{Index: i, Name: name, Reason: reason}
			return nil, &core.Error{
				Code: core.CodeInvalidArgument,
				Op:   "keys",
				Msg:  "keys[" + strconv.Itoa(i) + "]",
				Err:  ke,
			}
		}
		out = append(out, b...)
	}
	return out, nil
}

// DependsOnCursorMode reports whether the encoding of names differs between
// normal and application-cursor mode, that is whether a caller must know
// the mode before sending them. Names that do not encode report false.
func DependsOnCursorMode(names []string) bool {
	for _, name := range names {
		n, r1 := encodeOne(name, false)
		a, r2 := encodeOne(name, true)
		if r1 == "" && r2 == "" && string(n) != string(a) {
			return true
		}
	}
	return false
}

// modifiers held with a key.
type modifiers struct {
	ctrl, alt, shift bool
}

// param is xterm's modifier parameter: 1 plus 1 for Shift, 2 for Alt and
// 4 for Control.
func (m modifiers) param() int {
	p := 1
	if m.shift {
		p++
	}
	if m.alt {
		p += 2
	}
	if m.ctrl {
		p += 4
	}
	return p
}

func (m modifiers) any() bool { return m.ctrl || m.alt || m.shift }

// prefixes are the modifier spellings, longest first so that "ctrl-" wins
// over "c-".
var prefixes = []struct {
	text string
	set  func(*modifiers)
}{
	{"control-", func(m *modifiers) { m.ctrl = true }},
	{"control+", func(m *modifiers) { m.ctrl = true }},
	{"shift-", func(m *modifiers) { m.shift = true }},
	{"shift+", func(m *modifiers) { m.shift = true }},
	{"ctrl-", func(m *modifiers) { m.ctrl = true }},
	{"ctrl+", func(m *modifiers) { m.ctrl = true }},
	{"meta-", func(m *modifiers) { m.alt = true }},
	{"meta+", func(m *modifiers) { m.alt = true }},
	{"alt-", func(m *modifiers) { m.alt = true }},
	{"alt+", func(m *modifiers) { m.alt = true }},
	{"c-", func(m *modifiers) { m.ctrl = true }},
	{"m-", func(m *modifiers) { m.alt = true }},
	{"s-", func(m *modifiers) { m.shift = true }},
}

// splitModifiers strips modifier prefixes from name. A prefix counts only
// when something follows it, so "C-" alone is a (bad) key name, and "M--"
// is Alt with "-".
func splitModifiers(name string) (modifiers, string) {
	var m modifiers
	for {
		found := false
		for _, p := range prefixes {
			if len(name) > len(p.text) && strings.EqualFold(name[:len(p.text)], p.text) {
				p.set(&m)
				name = name[len(p.text):]
				found = true
				break
			}
		}
		if !found {
			return m, name
		}
	}
}

// keyKind is the family of a named key, which decides how modifiers apply.
type keyKind int

const (
	kindPlain  keyKind = iota // a fixed byte sequence (Enter, Tab, ...)
	kindCursor                // CSI/SS3 letter that follows DECCKM (arrows, Home, End)
	kindTilde                 // CSI n ~ (Insert, Delete, PageUp, PageDown, F5-F12)
	kindSS3                   // SS3 letter (F1-F4)
)

type namedKey struct {
	kind  keyKind
	plain string // kindPlain
	final byte   // kindCursor, kindSS3: the final letter
	num   int    // kindTilde: the number before ~
}

// named maps a normalized name (lower case, no '_' or ' ') to its key.
var named = map[string]namedKey{
	"enter":     {kind: kindPlain, plain: "\r"},
	"return":    {kind: kindPlain, plain: "\r"},
	"ret":       {kind: kindPlain, plain: "\r"},
	"cr":        {kind: kindPlain, plain: "\r"},
	"tab":       {kind: kindPlain, plain: "\t"},
	"backspace": {kind: kindPlain, plain: "\x7f"},
	"bs":        {kind: kindPlain, plain: "\x7f"},
	"escape":    {kind: kindPlain, plain: "\x1b"},
	"esc":       {kind: kindPlain, plain: "\x1b"},
	"space":     {kind: kindPlain, plain: " "},
	"spc":       {kind: kindPlain, plain: " "},
	"backtab":   {kind: kindPlain, plain: "\x1b[Z"},
	"up":        {kind: kindCursor, final: 'A'},
	"down":      {kind: kindCursor, final: 'B'},
	"right":     {kind: kindCursor, final: 'C'},
	"left":      {kind: kindCursor, final: 'D'},
	"home":      {kind: kindCursor, final: 'H'},
	"end":       {kind: kindCursor, final: 'F'},
	"insert":    {kind: kindTilde, num: 2},
	"ins":       {kind: kindTilde, num: 2},
	"delete":    {kind: kindTilde, num: 3},
	"del":       {kind: kindTilde, num: 3},
	"pageup":    {kind: kindTilde, num: 5},
	"pgup":      {kind: kindTilde, num: 5},
	"prior":     {kind: kindTilde, num: 5},
	"pagedown":  {kind: kindTilde, num: 6},
	"pgdown":    {kind: kindTilde, num: 6},
	"pgdn":      {kind: kindTilde, num: 6},
	"next":      {kind: kindTilde, num: 6},
	"f1":        {kind: kindSS3, final: 'P'},
	"f2":        {kind: kindSS3, final: 'Q'},
	"f3":        {kind: kindSS3, final: 'R'},
	"f4":        {kind: kindSS3, final: 'S'},
	"f5":        {kind: kindTilde, num: 15},
	"f6":        {kind: kindTilde, num: 17},
	"f7":        {kind: kindTilde, num: 18},
	"f8":        {kind: kindTilde, num: 19},
	"f9":        {kind: kindTilde, num: 20},
	"f10":       {kind: kindTilde, num: 21},
	"f11":       {kind: kindTilde, num: 23},
	"f12":       {kind: kindTilde, num: 24},
}

func normalize(name string) string {
	name = strings.ToLower(name)
	if strings.ContainsAny(name, "_ ") {
		name = strings.NewReplacer("_", "", " ", "").Replace(name)
	}
	return name
}

// encodeOne encodes one name, or returns a reason it cannot.
func encodeOne(name string, appCursor bool) ([]byte, string) {
	if name == "" {
		return nil, "empty key name"
	}
	m, base := splitModifiers(name)
	if utf8.RuneCountInString(base) == 1 {
		r, _ := utf8.DecodeRuneInString(base)
		if r == utf8.RuneError && base != "\uFFFD" {
			return nil, "not valid UTF-8"
		}
		return encodeChar(r, m)
	}
	k, ok := named[normalize(base)]
	if !ok {
		return nil, "unknown key name (use a single character, one of " + strings.Join(Known(), ", ") +
			", or a combination such as C-c, M-x, C-Up, S-Tab; words and lines are text, typed as they are, not key names)"
	}
	switch k.kind {
	case kindCursor:
		if m.any() {
			return csiModified(1, m.param(), k.final), ""
		}
		if appCursor {
			return []byte{0x1b, 'O', k.final}, ""
		}
		return []byte{0x1b, '[', k.final}, ""
	case kindTilde:
		if m.any() {
			return []byte("\x1b[" + strconv.Itoa(k.num) + ";" + strconv.Itoa(m.param()) + "~"), ""
		}
		return []byte("\x1b[" + strconv.Itoa(k.num) + "~"), ""
	case kindSS3:
		if m.any() {
			return csiModified(1, m.param(), k.final), ""
		}
		return []byte{0x1b, 'O', k.final}, ""
	}
	return encodePlain(k.plain, m)
}

// csiModified is xterm's "CSI n ; m final" form of a modified key.
func csiModified(n, param int, final byte) []byte {
	return []byte("\x1b[" + strconv.Itoa(n) + ";" + strconv.Itoa(param) + string(final))
}

// encodePlain applies modifiers to Enter, Tab, Backspace, Escape, Space and
// BackTab.
func encodePlain(plain string, m modifiers) ([]byte, string) {
	if plain == " " {
		return encodeChar(' ', m)
	}
	out := plain
	switch {
	case m.shift && plain == "\t" && !m.ctrl:
		out = "\x1b[Z"
	case m.ctrl && plain == "\x7f" && !m.shift:
		out = "\x08"
	case m.ctrl || m.shift:
		return nil, "this modifier combination has no terminal encoding"
	}
	if m.alt {
		out = "\x1b" + out
	}
	return []byte(out), ""
}

// encodeChar encodes a single character with modifiers: Shift upper-cases
// a letter, Control maps to the C0 control code, Alt prefixes ESC.
func encodeChar(r rune, m modifiers) ([]byte, string) {
	if m.shift {
		switch {
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		case r >= 'A' && r <= 'Z', r == ' ':
		default:
			return nil, "Shift applies only to letters and Space (type the shifted character itself)"
		}
	}
	var b []byte
	if m.ctrl {
		c, ok := controlCode(r)
		if !ok {
			return nil, "Control has no code for " + strconv.QuoteRune(r) + " (use a letter or one of @ [ \\ ] ^ _ ? Space 2-8)"
		}
		b = []byte{c}
	} else {
		b = utf8.AppendRune(nil, r)
	}
	if m.alt {
		b = append([]byte{0x1b}, b...)
	}
	return b, ""
}

// controlCode is the C0 code a terminal sends for Control and r.
func controlCode(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r - 'a' + 1), true
	case r >= 'A' && r <= 'Z':
		return byte(r - 'A' + 1), true
	}
	switch r {
	case '@', ' ', '2':
		return 0x00, true
	case '[', '3':
		return 0x1b, true
	case '\\', '4':
		return 0x1c, true
	case ']', '5':
		return 0x1d, true
	case '^', '6':
		return 0x1e, true
	case '_', '7', '/':
		return 0x1f, true
	case '?', '8':
		return 0x7f, true
	}
	return 0, false
}
