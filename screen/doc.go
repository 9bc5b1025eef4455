// Package screen gives ptyseam sessions a screen: snapshots of what a
// terminal would show now (for vim, less, top, curses menus and installers,
// where line scrollback is unreadable), answers to the terminal queries
// such programs wait for, resizing, and keys by name.
//
// A [Manager] watches every session of a core service through the
// service's OnSpawn hook. Per session it runs one goroutine that copies the
// raw output into a bounded buffer and scans it for terminal queries
// (device attributes, status and cursor position reports, mode and colour
// queries). The terminal emulator (github.com/charmbracelet/x/vt) is
// created and fed only when needed: for a snapshot, to answer a query (the
// answer depends on the emulator's state), or to send keys whose encoding
// depends on the program's cursor mode. It then catches up on the buffer.
// If the buffer overflowed first, the emulator is rebuilt from what is
// left and the snapshot is marked Approximate until the program redraws
// the screen.
//
// The emulator's answers go back to the program through core.Tap.Reply on
// a goroutine of their own: the emulator writes them into a synchronous
// pipe that the manager always drains, so neither a query nor a program
// that never reads its input can block it.
//
// Package keys encodes key names ("Enter", "C-c", "Up", "F5", "M-x") into
// the bytes a terminal sends. [Tools] returns the model-facing tools
// pty_screen, pty_resize and pty_keys for a tools.Dispatcher.
//
// See docs/screen.md for the design and measured figures.
package screen
