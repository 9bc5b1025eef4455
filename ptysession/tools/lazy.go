package tools

import (
	"encoding/json"
	"sync"
)

// LazySchema is [MustInferSchema] built on first use and kept: a package
// that declares its tools' static schemas as package variables with
// LazySchema pays for the reflection only when a tool list is built, not
// at every program's start (the remote agent, a command that serves no
// tools). Like MustInferSchema, the function it returns panics on a
// broken schema, at its first call.
func LazySchema[T any](opts ...SchemaOption) func() json.RawMessage {
	return sync.OnceValue(func() json.RawMessage { return MustInferSchema[T](opts...) })
}
