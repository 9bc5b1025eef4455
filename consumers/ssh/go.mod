module github.com/ptyseam/ptyseam/consumers/ssh

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/ptyseam/ptyseam/core v0.1.0
	github.com/ptyseam/ptyseam/ptysession v0.1.0
	github.com/ptyseam/ptyseam/remote v0.1.0
	github.com/ptyseam/ptyseam/testharness v0.1.0
	go.uber.org/goleak v1.3.0
	golang.org/x/crypto v0.59.0
	golang.org/x/sys v0.50.0
)

require github.com/hashicorp/yamux v0.1.2 // indirect

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/ptyseam/ptyseam/internal v0.1.0
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
