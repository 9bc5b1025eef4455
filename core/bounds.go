package core

// The output bounds, in one place: how much output one result may carry at
// each layer, from the service up to an MCP client. Each layer takes its
// bound from its options; these are the defaults.
const (
	// DefaultMaxResultBytes bounds the output one service call returns (a
	// send's Delta, an OutputDelta, a page, a spawn's InitialOutput):
	// Options.MaxResultBytes. It bounds what one caller takes from the
	// service's memory, whatever the layers above keep of it.
	DefaultMaxResultBytes = 256 << 10
	// DefaultMaxOutputBytes bounds the output in one result of the
	// ptysession facade (an open's initial output, a send's delta, a tail,
	// a page, a signal's output): ptysession.Options.MaxResultBytes, and
	// the ptyseam server's --result-bytes. It is what a model reads per
	// call.
	DefaultMaxOutputBytes = 32 << 10
	// DefaultMaxTextBytes bounds the whole text of one tool result (its
	// summary line and output) and of an error: tools.Options.MaxTextBytes
	// (the structured form gets twice as much, for JSON escapes). It leaves
	// room around DefaultMaxOutputBytes of output; a longer text is cut in
	// the middle with a marker.
	DefaultMaxTextBytes = 48 << 10
	// MaxProgressBytes bounds the output one progress notification carries
	// (a running send's output so far): notifications are frequent, and the
	// result carries the whole output.
	MaxProgressBytes = 4 << 10
)
