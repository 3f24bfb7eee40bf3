// expect: 7:6 several functions have loops
void init(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = 0;
}

void scale(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = 2 * A[i];
}
