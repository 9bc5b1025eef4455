module github.com/ptyseam/ptyseam/consumers/jobs

go 1.26.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/ptyseam/ptyseam/testharness v0.1.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/creack/pty v1.1.24 // indirect
	github.com/ptyseam/ptyseam/core v0.1.0
	github.com/ptyseam/ptyseam/internal v0.1.0
	github.com/ptyseam/ptyseam/ptysession v0.1.0
	golang.org/x/sys v0.50.0 // indirect
)
