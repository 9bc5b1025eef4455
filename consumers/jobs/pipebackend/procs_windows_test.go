package pipebackend

import "golang.org/x/sys/windows"

// zombieOrGone reports that pid is not running.
func (p proc) zombieOrGone() bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(p.pid))
	if err != nil {
		return true
	}
	defer func() { _ = windows.CloseHandle(h) }()
	var code uint32
	const stillActive = 259
	return windows.GetExitCodeProcess(h, &code) != nil || code != stillActive
}
