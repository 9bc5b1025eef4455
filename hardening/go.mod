module github.com/ptyseam/ptyseam/hardening

go 1.26.8

require go.uber.org/goleak v1.3.0 // indirect
