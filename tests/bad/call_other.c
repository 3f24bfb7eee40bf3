// expect: 5:5 call to 'printf' is not supported
#include <stdio.h>
void kernel_c(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    printf("%f\n", A[i]);
}
