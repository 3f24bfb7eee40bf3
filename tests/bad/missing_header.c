// expect: 2:10 No such file
#include "no_such_header_uplift.h"
void kernel_mh(int n, double A[n]) {
}
