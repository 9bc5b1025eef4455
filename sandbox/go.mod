module github.com/ptyseam/ptyseam/sandbox

go 1.26.8

require github.com/landlock-lsm/go-landlock v0.11.2

require (
	golang.org/x/sys v0.49.0 // indirect
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.78 // indirect
)
