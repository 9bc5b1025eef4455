/* threads.c: three worker threads that each call work(). */
#include <pthread.h>
#include <stdio.h>

int work(int n)
{
	int v = n * 10;
	return v;
}

static void *worker(void *arg)
{
	long n = (long)arg;
	work((int)n);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	long i;
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("threads done\n");
	return 0;
}
