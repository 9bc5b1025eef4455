package localpty

import "slices"

// readersID names the set of tasks (thread ids) blocked reading the
// terminal, for core.InputBaseline.Readers: the id itself for one task,
// for several a fingerprint of the sorted ids (FNV-1a) with the top bit
// set, so that it is never a thread id; 0 for none. With the set named,
// an unchanged sum of the tasks' voluntary switches means that none of
// them woke, since each task's count only grows; without it, another
// thread could block with the count the old one had.
func readersID(tids []int) uint64 {
	switch len(tids) {
	case 0:
		return 0
	case 1:
		return uint64(tids[0])
	}
	sorted := slices.Clone(tids)
	slices.Sort(sorted)
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, tid := range sorted {
		for v, i := uint64(tid), 0; i < 8; v, i = v>>8, i+1 {
			h ^= v & 0xff
			h *= prime
		}
	}
	return h | 1<<63
}
