package record

import (
	"os"

	"golang.org/x/sys/unix"
)

// wrote notes that f holds end bytes: at a round's end, the round's
// write-back starts (no waiting) and the round before it, whose write-back
// is waited for (it was started a round ago: done, unless the disk is
// slower than the output), leaves the page cache. Failures are ignored:
// the calls are advice, and the file is whole without them.
func (d *pageDropper) wrote(f *os.File, end int64) {
	if end-d.synced < pageRound {
		return
	}
	fd := int(f.Fd())
	_ = unix.SyncFileRange(fd, d.synced, end-d.synced, unix.SYNC_FILE_RANGE_WRITE)
	if d.synced > d.dropped {
		from := d.dropped &^ int64(os.Getpagesize()-1) // its last page was written again since
		_ = unix.SyncFileRange(fd, from, d.synced-from, unix.SYNC_FILE_RANGE_WAIT_BEFORE)
		_ = unix.Fadvise(fd, from, d.synced-from, unix.FADV_DONTNEED)
		d.dropped = d.synced
	}
	d.synced = end
}
