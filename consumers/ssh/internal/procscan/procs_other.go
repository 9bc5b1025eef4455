//go:build !linux

package procscan

// Find cannot scan processes without /proc: it returns root alone (if
// any), and callers also kill root's process group.
func Find(entry string, root int) []int {
	if root > 0 {
		return []int{root}
	}
	return nil
}
