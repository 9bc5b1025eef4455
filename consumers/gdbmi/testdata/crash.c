/* crash.c: dereferences a null pointer (SIGSEGV). */
#include <stdio.h>

int poke(int *p)
{
	return *p;
}

int main(void)
{
	int *nothing = 0;
	printf("about to crash\n");
	fflush(stdout);
	return poke(nothing);
}
