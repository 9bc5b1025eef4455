/* The program the demo debugs with gdb. */
#include <stdio.h>

static int fib(int n) {
    int a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        int t = a + b;
        a = b;
        b = t;
    }
    return a;
}

int main(void) {
    for (int n = 5; n <= 10; n += 5) {
        printf("fib(%d) = %d\n", n, fib(n));
    }
    return 3;
}
