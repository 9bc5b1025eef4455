"""A small curses menu: Up/Down move the selection, Enter picks.

The selected item is drawn in reverse video with "> " before it. The pick
is written to the file named by the first argument, then the program
exits. It uses the terminal's keypad mode, so the arrow keys must come in
the form the terminal's application-cursor mode dictates.
"""
import curses
import sys

ITEMS = ["apple", "banana", "cherry", "damson"]


def run(scr):
    curses.curs_set(0)
    scr.keypad(True)
    sel = 0
    while True:
        scr.erase()
        scr.addstr(0, 0, "Pick a fruit (arrows, Enter)")
        for i, item in enumerate(ITEMS):
            mark = "> " if i == sel else "  "
            attr = curses.A_REVERSE if i == sel else curses.A_NORMAL
            scr.addstr(2 + i, 2, mark + item, attr)
        scr.refresh()
        key = scr.getch()
        if key == curses.KEY_UP:
            sel = (sel - 1) % len(ITEMS)
        elif key == curses.KEY_DOWN:
            sel = (sel + 1) % len(ITEMS)
        elif key in (curses.KEY_ENTER, 10, 13):
            return ITEMS[sel]
        else:
            scr.addstr(8, 0, "unexpected key %d" % key)


def main():
    choice = curses.wrapper(run)
    with open(sys.argv[1], "w") as f:
        f.write(choice + "\n")
    print("picked " + choice)


if __name__ == "__main__":
    main()
