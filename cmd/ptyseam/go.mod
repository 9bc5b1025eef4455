module github.com/ptyseam/ptyseam/cmd/ptyseam

go 1.26.8
