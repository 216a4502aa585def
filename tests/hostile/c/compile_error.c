/* Does not compile: main uses an identifier that is never declared. */
#include <stdio.h>

int main(void) {
    printf("%d\n", undeclared_thing);
    return 0;
}
