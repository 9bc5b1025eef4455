module github.com/ptyseam/ptyseam/hardening

go 1.26.0

require (
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	golang.org/x/crypto v0.59.0 // indirect
)
