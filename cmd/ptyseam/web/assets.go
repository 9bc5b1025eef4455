package web

import (
	"embed"
	"io/fs"
)

// static holds the page (index.html, login.html, watch.js, watch.css,
// committed) and, once built, static/vendor: xterm.js and its stylesheet
// from the pinned npm package (`npm ci && npm run build` in this folder,
// which scripts/deps.sh runs). A binary built without them still serves
// the page, which then says how to get the terminal view.
//
//go:embed static
var static embed.FS

// HasPlayer reports whether this binary embeds asciinema-player.
func HasPlayer() bool {
	_, err := fs.Stat(static, "static/vendor/asciinema-player.min.js")
	return err == nil
}

// HasXterm reports whether this binary embeds xterm.js.
func HasXterm() bool {
	_, err := fs.Stat(static, "static/vendor/xterm.js")
	return err == nil
}
