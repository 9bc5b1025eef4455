/* args.c: prints its argument count and every argument in hex, one per
 * line, so that a test can compare them byte for byte. */
#include <stdio.h>

int main(int argc, char **argv)
{
	int i;
	printf("argc=%d\n", argc - 1);
	for (i = 1; i < argc; i++) {
		const unsigned char *p = (const unsigned char *)argv[i];
		printf("arg%d=[", i);
		for (; *p; p++)
			printf("%02x", *p);
		printf("]\n");
	}
	printf("args done\n");
	return 0;
}
