/* loop.c: spins forever until interrupted, saying so now and then. */
#include <stdio.h>

volatile unsigned long counter;

int main(void)
{
	for (;;) {
		counter++;
		if (counter % (1UL << 22) == 0) {
			printf("looping %lu\n", counter);
			fflush(stdout);
		}
	}
	return 0;
}
