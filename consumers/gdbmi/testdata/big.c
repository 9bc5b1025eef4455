/* big.c: holds a large array for large responses. */
#include <string.h>

char big[300000];

int main(void)
{
	size_t i;
	for (i = 0; i < sizeof big - 1; i++)
		big[i] = 'a' + (char)(i % 26);
	big[sizeof big - 1] = 0;
	return (int)strlen(big) == 0;
}
