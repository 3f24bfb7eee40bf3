// expect: 6:5 the file-scope variable 'a' is used by the kernel
#define LEN 32
float a[LEN], b[LEN];
void s000(void) {
  for (int i = 0; i < LEN; i++)
    a[i] = b[i] + 1;
}
