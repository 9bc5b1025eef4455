module github.com/ptyseam/ptyseam/consumers/gdbmi

go 1.26.8
