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
	return head + "\n" + r.Screen.Text()
}
