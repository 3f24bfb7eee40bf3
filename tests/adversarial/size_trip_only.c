/* size_trip_only.c - m is only a trip count: B = m * A. */
void kernel_size_trip_only(int n, int m, double A[n], double B[n])
{
  for (int i = 0; i < n; i++) {
    B[i] = 0.0;
    for (int j = 0; j < m; j++)
      B[i] += A[i];
  }
}
