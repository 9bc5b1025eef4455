package scrollback

// DefaultLimits holds the bounds a zero Limits field takes.
var DefaultLimits = Limits{MaxLines: 10_000, MaxBytes: 4 << 20, MaxLineBytes: 64 << 10}

// WithDefaults returns l with every zero or negative field replaced by the
// matching field of DefaultLimits. MaxLineBytes is also capped at MaxBytes,
// so a single line can never exceed the byte bound on its own.
func (l Limits) WithDefaults() Limits {
	if l.MaxLines <= 0 {
		l.MaxLines = DefaultLimits.MaxLines
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = DefaultLimits.MaxLineBytes
	}
	if l.MaxLineBytes > l.MaxBytes {
		l.MaxLineBytes = l.MaxBytes
	}
	return l
}
