/* lines prints a block of 22 lines, each naming its process, and exits:
   a test reads the block right after gdb reports the exit. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
	int pid = (int)getpid();
	printf("begin %d\n", pid);
	for (int i = 0; i < 20; i++)
		printf("%d line %02d abcdefghijklmnopqrstuvwxyz0123456789\n", pid, i);
	printf("end %d\n", pid);
	return 0;
}
