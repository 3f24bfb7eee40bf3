// expect: 6:5 the file-scope variable 'total' is used by the kernel
#define LEN 32
float b[LEN], total;
void s000(void) {
  for (int i = 0; i < LEN; i++)
    total += b[i];
}
