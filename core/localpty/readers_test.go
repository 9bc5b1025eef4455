package localpty

import "testing"

func TestReadersID(t *testing.T) {
	if got := readersID(nil); got != 0 {
		t.Errorf("no readers: %d, want 0", got)
	}
	if got := readersID([]int{4242}); got != 4242 {
		t.Errorf("one reader: %d, want its thread id", got)
	}
	ab, ba := readersID([]int{10, 11}), readersID([]int{11, 10})
	if ab != ba {
		t.Errorf("the order of the tasks changed the id: %x, %x", ab, ba)
	}
	if ab>>63 != 1 {
		t.Errorf("several readers: %x, want the top bit set (never a thread id)", ab)
	}
	seen := map[uint64][]int{}
	for _, set := range [][]int{{10, 11}, {10, 12}, {11, 12}, {10, 11, 12}, {1, 2}, {2, 3}, {1, 1 << 22}} {
		id := readersID(set)
		if prev, ok := seen[id]; ok {
			t.Errorf("readers %v and %v have the same id %x", prev, set, id)
		}
		seen[id] = set
	}
}
