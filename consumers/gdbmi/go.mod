module github.com/ptyseam/ptyseam/consumers/gdbmi

go 1.26.8

require go.uber.org/goleak v1.3.0
