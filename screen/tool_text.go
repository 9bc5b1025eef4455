package screen

import "strconv"

func renderResize(id string, r ResizeResult) string {
	return "Session " + id + " resized to " + strconv.Itoa(r.Rows) + " rows x " + strconv.Itoa(r.Cols) +
		" columns. Look with pty_screen once the program redrew."
}

func renderKeys(r KeysToolResult) string {
	return "waitReason: " + string(r.WaitReason) + ", status: " + r.Status.String() + "\n" + r.Screen.Text()
}
