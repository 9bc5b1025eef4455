module github.com/ptyseam/ptyseam/consumers/gdbmi

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0 // indirect
	go.uber.org/goleak v1.3.0 // indirect
)
