/* simple.c: a small program for breakpoints, stepping, locals and exit codes. */
#include <stdio.h>
#include <stdlib.h>

static const char *greeting = "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac";

int add(int a, int b)
{
	int sum = a + b;
	return sum;
}

int twice(int x)
{
	int r = add(x, x);
	return r;
}

int main(int argc, char **argv)
{
	int total = 0;
	int i;
	for (i = 0; i < 3; i++)
		total += twice(i);
	printf("%s total=%d\n", greeting, total);
	fflush(stdout);
	return argc > 1 ? atoi(argv[1]) : 3;
}
