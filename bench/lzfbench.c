/*
 * liblzf as a benchmark peer for bench/lzf.mjs: a persistent process that
 * reads one command per line on stdin and answers one line on stdout, so
 * that its rounds interleave with the JavaScript rounds in the same run.
 * Times are this process's own CPU time (CLOCK_PROCESS_CPUTIME_ID), in ms.
 *
 *   raw PATH        load the uncompressed input
 *   packed PATH     load a compressed stream (the one the JS side decodes)
 *   c N             lzf_compress the input N times   -> "MS CLEN"
 *   d N             lzf_decompress the stream N times, each into a newly
 *                   allocated buffer (as a function returning the data must)
 *                                                     -> "MS DLEN"
 *   dr N            the same into one reused buffer   -> "MS DLEN"
 *   wc PATH / wd PATH  write the last compressed / decompressed output -> "ok"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lzf.h>

static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static unsigned char *load(const char *path, long *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*n ? *n : 1);
  if (fread(b, 1, *n, f) != (size_t)*n) { fclose(f); free(b); return NULL; }
  fclose(f);
  return b;
}

static int save(const char *path, const unsigned char *b, long n) {
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  int ok = fwrite(b, 1, n, f) == (size_t)n;
  return fclose(f) == 0 && ok;
}

int main(void) {
  unsigned char *raw = NULL, *packed = NULL, *cout = NULL, *dout = NULL;
  long rawn = 0, packedn = 0, coutn = 0, doutn = 0, dcap = 0;
  char line[4096], arg[4000];
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof line, stdin)) {
    long reps = 0;
    if (sscanf(line, "raw %3999s", arg) == 1) {
      free(raw);
      raw = load(arg, &rawn);
      free(cout);
      cout = malloc(rawn + rawn / 16 + 64);
      printf(raw ? "ok\n" : "error\n");
    } else if (sscanf(line, "packed %3999s", arg) == 1) {
      free(packed);
      packed = load(arg, &packedn);
      printf(packed ? "ok\n" : "error\n");
    } else if (sscanf(line, "c %ld", &reps) == 1 && raw) {
      double t = cpu_ms();
      for (long i = 0; i < reps; i++) coutn = lzf_compress(raw, rawn, cout, rawn + rawn / 16 + 64);
      printf("%.4f %ld\n", cpu_ms() - t, coutn);
    } else if (sscanf(line, "dr %ld", &reps) == 1 && packed) {
      if (dcap < rawn || !dout) { free(dout); dcap = rawn; dout = malloc(dcap ? dcap : 1); }
      double t = cpu_ms();
      for (long i = 0; i < reps; i++) doutn = lzf_decompress(packed, packedn, dout, dcap);
      printf("%.4f %ld\n", cpu_ms() - t, doutn);
    } else if (sscanf(line, "d %ld", &reps) == 1 && packed) {
      double t = cpu_ms();
      for (long i = 0; i < reps; i++) {
        unsigned char *o = malloc(rawn ? rawn : 1);
        doutn = lzf_decompress(packed, packedn, o, rawn);
        if (i + 1 == reps) { free(dout); dout = o; dcap = rawn; } else free(o);
      }
      printf("%.4f %ld\n", cpu_ms() - t, doutn);
    } else if (sscanf(line, "wc %3999s", arg) == 1) {
      printf(save(arg, cout, coutn) ? "ok\n" : "error\n");
    } else if (sscanf(line, "wd %3999s", arg) == 1) {
      printf(save(arg, dout, doutn) ? "ok\n" : "error\n");
    } else {
      printf("error\n");
    }
  }
  return 0;
}
