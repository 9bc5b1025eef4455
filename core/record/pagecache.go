package record

// pageRound is how much of a recording's file goes to the disk at a time
// and leaves the page cache a round later (see pageDropper).
const pageRound = 2 << 20

// pageDropper keeps a busy recording's file from taking new page-cache
// pages for every MiB it writes: every pageRound bytes it starts the
// write-back of the round just written, and drops the pages of the round
// before, written back by then. The next writes take the pages just freed,
// still warm, instead of pages the system has not touched for a while:
// on a virtual machine whose free memory goes back to the host (a balloon
// with free page reporting), every such page is faulted in again by the
// host, which made the page cache's share of a recording 2-3 ms of CPU per
// MiB. A recording's file holds at most two rounds of its pages in the
// cache; what is dropped is on the disk, and a reader of the live file
// reads it from there. Where the system has no such calls (off Linux), it
// does nothing.
type pageDropper struct {
	synced  int64 // the end of the range whose write-back was started
	dropped int64 // the end of the range whose pages were dropped
}
