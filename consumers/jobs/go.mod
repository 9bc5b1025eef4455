module github.com/ptyseam/ptyseam/consumers/jobs

go 1.26.8

require go.uber.org/goleak v1.3.0

require (
	github.com/creack/pty v1.1.24 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
