package screen

import "strconv"

func renderResize(id string, r ResizeResult) string {
	return "Session " + id + " resized to " + strconv.Itoa(r.Rows) + " rows x " + strconv.Itoa(r.Cols) +
		" columns. Look with pty_screen once the program redrew."
}

func renderKeys(r KeysToolResult) string {
	head := "waitReason: " + string(r.WaitReason) + ", status: " + r.Status.String()
	if r.LeftFullScreen {
		head += ", left the full-screen program; rows new on the normal screen follow"
	}
	if r.Discarded > 0 {
		head += ", the program discarded " + strconv.Itoa(r.Discarded) + " bytes of the keys unread: send them again with paced:true"
	}
	return head + "\n" + r.Screen.Text()
}
