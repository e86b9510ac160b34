/*
 * liblzf speed on one file, for bench/lzf.mjs: `lzfbench FILE` prints
 * {"compressMBs": .., "decompressMBs": .., "decompressFreshMBs": ..,
 * "compressedBytes": ..} (MB/s of
 * uncompressed data, 1 MB = 10^6 bytes), each from the fastest single call
 * within about a second (the machine is shared; the minimum is what load
 * disturbs least).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <lzf.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *in = malloc(n), *c = malloc(n + n / 16 + 64), *d = malloc(n);
  if (fread(in, 1, n, f) != (size_t)n) return 1;
  unsigned int clen = 0;
  double best_c = 1e9, best_d = 1e9, t0 = now(), t;
  int calls = 0;
  do {
    t = now();
    clen = lzf_compress(in, n, c, n + n / 16 + 64);
    t = now() - t;
    if (t < best_c) best_c = t;
  } while (++calls < 5 || now() - t0 < 1.0);
  t0 = now();
  calls = 0;
  do {
    t = now();
    if (lzf_decompress(c, clen, d, n) != (unsigned int)n) return 1;
    t = now() - t;
    if (t < best_d) best_d = t;
  } while (++calls < 5 || now() - t0 < 1.0);
  /* the same, producing a new output buffer each time (malloc + free), as a
     function returning the decompressed level must */
  double best_f = 1e9;
  t0 = now();
  calls = 0;
  do {
    t = now();
    unsigned char *o = malloc(n);
    if (lzf_decompress(c, clen, o, n) != (unsigned int)n) return 1;
    t = now() - t;
    free(o);
    if (t < best_f) best_f = t;
  } while (++calls < 5 || now() - t0 < 1.0);
  printf("{\"compressMBs\": %.1f, \"decompressMBs\": %.1f, \"decompressFreshMBs\": %.1f, \"compressedBytes\": %u}\n",
         n / best_c / 1e6, n / best_d / 1e6, n / best_f / 1e6, clen);
  return 0;
}
