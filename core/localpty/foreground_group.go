//go:build unix

package localpty

// ForegroundGroup is the terminal's foreground group from one ioctl (see
// core.Prober).
func (s *session) ForegroundGroup() (group int, leader bool, err error) {
	pgid, err := s.foregroundPGID("probe")
	if err != nil {
		return 0, false, err
	}
	return pgid, pgid == s.pid, nil
}
