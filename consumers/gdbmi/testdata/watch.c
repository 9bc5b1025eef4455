/* watch.c: a global and a local that change, for watchpoints. */
#include <stdio.h>

int level = 1;

int bump(int by)
{
	int seen = level;
	level = level + by;
	seen = seen * 2;
	return seen;
}

int main(void)
{
	int i, sum = 0;
	for (i = 0; i < 3; i++)
		sum += bump(i + 1);
	printf("level=%d sum=%d\n", level, sum);
	return 0;
}
