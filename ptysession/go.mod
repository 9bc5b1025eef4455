module github.com/ptyseam/ptyseam/ptysession

go 1.26.8

require (
	github.com/google/jsonschema-go v0.4.3
	go.uber.org/goleak v1.3.0
)
