module github.com/ptyseam/ptyseam/core

go 1.26.8
