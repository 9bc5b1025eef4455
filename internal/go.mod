module github.com/ptyseam/ptyseam/internal

go 1.26.0
