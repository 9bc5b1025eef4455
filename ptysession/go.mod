module github.com/ptyseam/ptyseam/ptysession

go 1.26.8
