package core

import "sync/atomic"

// Owner is the identity that spawns sessions and is authorized to use them.
//
// Owners are created by [NewOwner] and compared by identity: two owners with
// the same name are different owners, and a session answers only the exact
// *Owner value that spawned it. The name is display metadata only.
type Owner struct {
	name string
	seq  uint64
}

var ownerSeq atomic.Uint64

// NewOwner returns a new owner with a display name. The name authorizes
// nothing; only the returned pointer does.
func NewOwner(name string) *Owner {
	return &Owner{name: name, seq: ownerSeq.Add(1)}
}

// Name returns the owner's display name.
func (o *Owner) Name() string {
	if o == nil {
		return ""
	}
	return o.name
}

// String returns a log-friendly description of the owner.
func (o *Owner) String() string {
	if o == nil {
		return "owner(nil)"
	}
	return "owner(" + o.name + ")"
}
