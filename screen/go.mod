module github.com/ptyseam/ptyseam/screen

go 1.26.8
