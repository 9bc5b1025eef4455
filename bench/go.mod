module github.com/ptyseam/ptyseam/bench

go 1.26.0

require (
	github.com/Netflix/go-expect v0.0.0-20220104043353-73e0943537d2 // indirect
	github.com/creack/pty v1.1.24 // indirect
	github.com/mark3labs/mcp-go v1.2.1
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/ptyseam/ptyseam/internal v0.1.0
	go.uber.org/goleak v1.3.0 // indirect
)
