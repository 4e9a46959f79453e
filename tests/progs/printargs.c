/* printargs ARG...: the program the exec tests run; prints its argv on one line. */
#include "common.h"

int main(int argc, char **argv)
{
	printf("argv = [");
	for (int i = 0; i < argc; i++)
		printf("%s%s", i ? ", " : "", q(argv[i]));
	printf("]\n");
	return 0;
}
