// Does not compile: main uses an identifier that is never declared.
#include <iostream>

int main() {
    std::cout << undeclared_thing << std::endl;
    return 0;
}
