/*
 * A plain C decoder of CTHG sprite pixel data (run-length encoded 32bpp with
 * recolour runs), for comparison with the JavaScript decoder in bench/cthg.mjs.
 * Reads the sprite set file written by the bench:
 *   u32 count, then per sprite: u16 width, u16 height, u32 length, data
 * and decodes every sprite to RGBA (grey ramp for recolour runs) in a timing
 * loop, with the same checks as the JS decoder. Prints "Mpx/s X".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    uint32_t w, h, len;
    const uint8_t *data;
} sprite_t;

static uint8_t grey[768];

/* Returns 0 on success, -1 on bad data. */
static int decode(const uint8_t *d, uint32_t n, uint32_t w, uint32_t h, uint32_t *out)
{
    uint32_t total = w * h, done = 0, p = 0;
    memset(out, 0, (size_t)total * 4);
    while (done < total) {
        if (p >= n) return -1;
        uint8_t b = d[p];
        uint32_t count = b & 63, type = b >> 6;
        if (count > total - done) return -1;
        if (type == 0) {
            if (p + 1 + 3 * count > n) return -1;
            p++;
            for (uint32_t k = 0; k < count; k++, p += 3)
                out[done++] = d[p] | (d[p + 1] << 8) | (d[p + 2] << 16) | 0xff000000u;
        } else if (type == 2) {
            p++;
            done += count;
        } else if (type == 1) {
            if (p + 2 + 3 * count > n) return -1;
            uint32_t a = (uint32_t)d[p + 1] << 24;
            p += 2;
            for (uint32_t k = 0; k < count; k++, p += 3)
                out[done++] = d[p] | (d[p + 1] << 8) | (d[p + 2] << 16) | a;
        } else {
            if (p + 3 + count > n) return -1;
            uint32_t a = (uint32_t)d[p + 2] << 24;
            const uint8_t *t = grey; /* layer d[p + 1]: no tables in the bench */
            p += 3;
            for (uint32_t k = 0; k < count; k++) {
                uint32_t i = d[p++] * 3;
                out[done++] = t[i] | (t[i + 1] << 8) | (t[i + 2] << 16) | a;
            }
        }
    }
    return p == n ? 0 : -1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cthg_rle SPRITES.bin [seconds]\n");
        return 2;
    }
    double seconds = argc > 2 ? atof(argv[2]) : 1.0;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(size);
    if (fread(buf, 1, size, f) != (size_t)size) return 1;
    fclose(f);
    for (int i = 0; i < 256; i++) grey[i * 3] = grey[i * 3 + 1] = grey[i * 3 + 2] = (uint8_t)i;

    uint32_t count = buf[0] | buf[1] << 8 | buf[2] << 16 | (uint32_t)buf[3] << 24;
    sprite_t *s = malloc(sizeof(sprite_t) * count);
    size_t p = 4, maxpx = 0;
    double pixels = 0;
    for (uint32_t i = 0; i < count; i++) {
        s[i].w = buf[p] | buf[p + 1] << 8;
        s[i].h = buf[p + 2] | buf[p + 3] << 8;
        s[i].len = buf[p + 4] | buf[p + 5] << 8 | buf[p + 6] << 16 | (uint32_t)buf[p + 7] << 24;
        s[i].data = buf + p + 8;
        p += 8 + s[i].len;
        if ((size_t)s[i].w * s[i].h > maxpx) maxpx = (size_t)s[i].w * s[i].h;
        pixels += (double)s[i].w * s[i].h;
    }
    uint32_t *out = malloc(maxpx * 4 + 4);
    uint32_t check = 0;
    double t0 = now(), t;
    long reps = 0;
    do {
        for (uint32_t i = 0; i < count; i++) {
            if (decode(s[i].data, s[i].len, s[i].w, s[i].h, out) != 0) {
                fprintf(stderr, "bad sprite %u\n", i);
                return 1;
            }
            check += out[(s[i].w * s[i].h) / 2];
        }
        reps++;
        t = now() - t0;
    } while (t < seconds);
    printf("Mpx/s %.1f\n", pixels * reps / t / 1e6);
    fprintf(stderr, "(checksum %u)\n", check);
    return 0;
}
