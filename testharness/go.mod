module github.com/ptyseam/ptyseam/testharness

go 1.26.8
