// placeholder replaced by the real CLI
#include <cstdio>
int main() { std::puts("decoding-lab-cli"); return 0; }
