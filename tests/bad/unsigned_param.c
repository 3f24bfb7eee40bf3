// expect: 2:28 integer element data of type 'unsigned char'
void kernel_up(unsigned n, const unsigned char A[n], double B[n]) {
  for (unsigned i = 0; i < n; i++)
    B[i] = A[i];
}
