module github.com/ptyseam/ptyseam/sandbox

go 1.26.0

require (
	github.com/landlock-lsm/go-landlock v0.11.2
	github.com/ptyseam/ptyseam/core v0.1.0
	github.com/ptyseam/ptyseam/testharness v0.1.0
)
