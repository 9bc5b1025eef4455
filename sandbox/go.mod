module github.com/ptyseam/ptyseam/sandbox

go 1.26.0

require (
	github.com/landlock-lsm/go-landlock v0.11.2
	github.com/ptyseam/ptyseam/core v0.1.0
	github.com/ptyseam/ptyseam/internal v0.1.0
	github.com/ptyseam/ptyseam/testharness v0.1.0
)

require (
	github.com/creack/pty v1.1.24
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.50.0
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.78 // indirect
)
