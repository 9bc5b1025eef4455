// Package keys turns key names into the bytes a terminal sends for them.
//
// [Encode] takes names such as "Enter", "Tab", "Backspace", "Escape" (or
// "Esc"), "Up", "Down", "Left", "Right", "Home", "End", "PageUp",
// "PageDown", "Insert", "Delete", "F1" to "F12", "Space", a single
// character ("a", ":", "é") and modifier combinations: "C-x", "Ctrl-x" or
// "Ctrl+x" for a control character (including "C-@", "C-[", "C-\", "C-]",
// "C-^", "C-_", "C-?" and "C-Space"), "M-x" or "Alt-x" for the key prefixed
// with ESC, "S-x" or "Shift-x" for shifted keys, combinable ("C-M-x",
// "C-Up", "S-Tab"). Names are matched without regard to case, except that
// a single character stands for itself ("M-x" and "M-X" differ).
//
// The encodings are xterm's (the TERM=xterm-256color that ptyseam's local
// backend sets). Cursor keys (the arrows, Home and End) follow the
// terminal's application-cursor mode (DECCKM): with it on they are sent as
// SS3 sequences ("ESC O A"), otherwise as CSI sequences ("ESC [ A"). A
// caller that emulates the screen knows which mode the program turned on.
//
// An unknown name is a *core.Error with code INVALID_ARGUMENT whose message
// names the key; it wraps a [*KeyError].
package keys
