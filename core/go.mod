module github.com/ptyseam/ptyseam/core

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/ptyseam/ptyseam/internal v0.1.0
	go.uber.org/goleak v1.3.0
	golang.org/x/sys v0.50.0
)
