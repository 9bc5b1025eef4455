package core

// LineRange is a run of output lines by global line number (line 0 is the
// first line the session printed), both ends included: what a result left
// out when it was cut (see ptysession.CutLines).
type LineRange struct {
	// From is the first line of the run.
	From int64 `json:"from"`
	// To is the last line of the run.
	To int64 `json:"to"`
}

// Len is the number of lines in r.
func (r LineRange) Len() int64 { return r.To - r.From + 1 }
