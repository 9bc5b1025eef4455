/* tricky.c: prints text that looks like GDB/MI output. */
#include <stdio.h>

int main(void)
{
	printf("^done\n");
	printf("*stopped,reason=\"x\"\n");
	printf("(gdb) \n");
	printf("123^error,msg=\"fake\"\n");
	printf("~\"console\\n\"\n");
	printf("=thread-group-exited,id=\"i9\"\n");
	fflush(stdout);
	return 0;
}
