/* The floor for a tiled elementwise kernel on this host, in plain C: the
 * same data movement as examples/02_add_framework (copy a tile of x and of
 * y into a 192 KiB "UB", add, copy the sum out), one thread, against a
 * direct z = x + y loop. Used in docs/performance.md to separate what the
 * simulator costs from what staging through a local buffer costs anyway.
 *
 *   cc -O3 benchmarks/staging_baseline.c -o /tmp/staging && /tmp/staging */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  const size_t n = (size_t)1 << 24, tile = 8192;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  float *z = malloc(n * sizeof *z);
  float *ub = aligned_alloc(64, 192 * 1024);
  if (!x || !y || !z || !ub)
    return 1;
  for (size_t i = 0; i < n; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
    z[i] = 0.0f;
  }
  double best_tiled = 1e9, best_direct = 1e9;
  for (int rep = 0; rep < 7; rep++) {
    double t0 = now();
    for (size_t o = 0; o < n; o += tile) {
      size_t s = (o / tile) % 2; /* double buffering, as the example */
      float *a = ub + s * tile, *b = ub + (2 + s) * tile;
      float *c = ub + (4 + s) * tile;
      memcpy(a, x + o, tile * sizeof *a);
      memcpy(b, y + o, tile * sizeof *b);
      for (size_t i = 0; i < tile; i++)
        c[i] = a[i] + b[i];
      memcpy(z + o, c, tile * sizeof *c);
    }
    double t1 = now();
    for (size_t i = 0; i < n; i++)
      z[i] = x[i] + y[i];
    double t2 = now();
    if (t1 - t0 < best_tiled)
      best_tiled = t1 - t0;
    if (t2 - t1 < best_direct)
      best_direct = t2 - t1;
  }
  printf("2^24 float32, one thread: staged through a UB %.2f ms, direct "
         "%.2f ms, ratio %.2f\n",
         best_tiled * 1e3, best_direct * 1e3, best_tiled / best_direct);
  free(x);
  free(y);
  free(z);
  free(ub);
  return 0;
}
