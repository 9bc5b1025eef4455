/* vars.c: a struct, an array and a pointer for variable objects. */
#include <stdio.h>

struct point {
	int x, y;
};

struct shape {
	const char *name;
	struct point corners[2];
	int sides;
};

int main(void)
{
	struct shape s = { "box", { { 1, 2 }, { 3, 4 } }, 4 };
	struct shape *p = &s;
	s.sides = 5;
	s.corners[1].y = 40;
	p->name = "square";
	printf("%s %d\n", s.name, s.sides);
	return 0;
}
