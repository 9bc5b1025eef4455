/* churn.c: creates and ends threads as fast as it can, forever, and
 * counts the rounds. */
#include <pthread.h>

volatile unsigned long rounds;

static void *noop(void *arg)
{
	return arg;
}

int main(void)
{
	for (;;) {
		pthread_t t;
		if (pthread_create(&t, NULL, noop, NULL) == 0)
			pthread_join(t, NULL);
		rounds++;
	}
	return 0;
}
