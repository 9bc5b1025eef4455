module github.com/ptyseam/ptyseam/testharness

go 1.26.8

require (
	go.uber.org/goleak v1.3.0
	golang.org/x/sys v0.50.0
)
