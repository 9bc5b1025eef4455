/* tty.c: reports how it sees its terminal (controlling terminal, /dev/tty,
 * foreground group), then reads lines and echoes them until end of input;
 * between reads it waits in read(2), so a Ctrl-C on its terminal reaches
 * it as SIGINT. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int report(void)
{
	int fd = open("/dev/tty", O_RDWR);
	int fg = tcgetpgrp(0);
	printf("tty: isatty=%d devtty=%s foreground=%s\n", isatty(0),
	       fd >= 0 ? "yes" : "no", fg == getpgrp() ? "yes" : "no");
	fflush(stdout);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

int main(void)
{
	char line[256];
	report();
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		printf("got <%s>\n", line);
		fflush(stdout);
	}
	printf("tty done\n");
	return 0;
}
