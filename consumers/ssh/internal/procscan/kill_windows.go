package procscan

import "os"

// KillAll kills the processes Find(entry, root) names, except keep. On
// Windows Find has no /proc to scan and names root alone, so this ends
// root (TerminateProcess); its children are not found.
func KillAll(entry string, root, keep int) {
	for _, pid := range Find(entry, root) {
		if pid == keep {
			continue
		}
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
			_ = p.Release()
		}
	}
}
