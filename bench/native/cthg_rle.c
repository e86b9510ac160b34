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

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * A persistent peer for bench/cthg.mjs: `cthg_rle SPRITES.bin`, then one
 * command per line on stdin:
 *   d N      decode every sprite N times into one reused buffer -> "MS" (CPU ms)
 *   w PATH   decode every sprite once and write all the RGBA pixels, one
 *            sprite after the other, to PATH (for the byte comparison) -> "ok"
 */
int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cthg_rle SPRITES.bin\n");
        return 2;
    }
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
    size_t p = 4, maxpx = 0, allpx = 0;
    for (uint32_t i = 0; i < count; i++) {
        s[i].w = buf[p] | buf[p + 1] << 8;
        s[i].h = buf[p + 2] | buf[p + 3] << 8;
        s[i].len = buf[p + 4] | buf[p + 5] << 8 | buf[p + 6] << 16 | (uint32_t)buf[p + 7] << 24;
        s[i].data = buf + p + 8;
        p += 8 + s[i].len;
        if ((size_t)s[i].w * s[i].h > maxpx) maxpx = (size_t)s[i].w * s[i].h;
        allpx += (size_t)s[i].w * s[i].h;
    }
    uint32_t *out = malloc(maxpx * 4 + 4);
    volatile uint32_t check = 0;
    char line[4096], path[4000];
    long reps;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "d %ld", &reps) == 1) {
            double t0 = now_ms();
            int bad = 0;
            for (long r = 0; r < reps && !bad; r++)
                for (uint32_t i = 0; i < count; i++) {
                    if (decode(s[i].data, s[i].len, s[i].w, s[i].h, out) != 0) { bad = 1; break; }
                    check += out[(s[i].w * s[i].h) / 2];
                }
            if (bad) printf("error\n");
            else printf("%.4f\n", now_ms() - t0);
        } else if (sscanf(line, "w %3999s", path) == 1) {
            uint32_t *all = malloc(allpx * 4 + 4), *o = all;
            int bad = 0;
            for (uint32_t i = 0; i < count && !bad; i++) {
                bad = decode(s[i].data, s[i].len, s[i].w, s[i].h, o) != 0;
                o += (size_t)s[i].w * s[i].h;
            }
            FILE *w = fopen(path, "wb");
            bad = bad || !w || fwrite(all, 4, allpx, w) != allpx;
            if (w) fclose(w);
            free(all);
            printf(bad ? "error\n" : "ok\n");
        } else {
            printf("error\n");
        }
    }
    return 0;
}
