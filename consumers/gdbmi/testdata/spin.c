/* spin.c: a process started outside gdb for attach tests: prints its pid,
 * then ticks a counter forever, sleeping between ticks. */
#include <stdio.h>
#include <unistd.h>

volatile unsigned long ticks;

void tick(void)
{
	ticks++;
}

int main(void)
{
	printf("pid=%d\n", (int)getpid());
	fflush(stdout);
	for (;;) {
		tick();
		usleep(1000);
	}
	return 0;
}
