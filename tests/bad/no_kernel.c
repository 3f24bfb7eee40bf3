// expect: 2:6 no kernel function
void init(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = 0;
}
