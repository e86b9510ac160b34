/*
 * Test helper: `lzfcli c` compresses stdin to stdout with liblzf's
 * lzf_compress, `lzfcli d SIZE` decompresses stdin (SIZE = the exact output
 * size) with lzf_decompress. Exit status 1 when liblzf reports failure.
 *
 * Debian builds liblzf with INIT_HTAB 0: the hash table lives uninitialised
 * on lzf_compress's stack. A scrub of the stack just before the call makes
 * the table start empty, as it does in a fresh process, so the output is
 * reproducible.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lzf.h>

static unsigned char *read_all(size_t *len) {
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  for (;;) {
    if (n == cap) buf = realloc(buf, cap *= 2);
    size_t r = fread(buf + n, 1, cap - n, stdin);
    if (r == 0) break;
    n += r;
  }
  *len = n;
  return buf;
}

__attribute__((noinline)) static void scrub_stack(void) {
  volatile unsigned char pad[1 << 20];
  memset((void *)pad, 0, sizeof pad);
}

__attribute__((noinline)) static unsigned int do_compress(const unsigned char *in, unsigned int n, unsigned char *out, unsigned int cap) {
  return lzf_compress(in, n, out, cap);
}

int main(int argc, char **argv) {
  size_t n;
  unsigned char *in;
  if (argc < 2) return 2;
  in = read_all(&n);
  if (argv[1][0] == 'c') {
    unsigned int cap = (unsigned int)(n + n / 16 + 64);
    unsigned char *out = malloc(cap);
    scrub_stack();
    unsigned int r = do_compress(in, (unsigned int)n, out, cap);
    if (n && !r) return 1;
    fwrite(out, 1, r, stdout);
  } else {
    unsigned int size = argc > 2 ? (unsigned int)strtoul(argv[2], 0, 10) : 0;
    unsigned char *out = malloc(size + 1);
    unsigned int r = lzf_decompress(in, (unsigned int)n, out, size);
    if (r != size) return 1;
    fwrite(out, 1, r, stdout);
  }
  return 0;
}
