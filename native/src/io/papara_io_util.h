/*
 * papara_io_util.h — growable arrays and name lists for the PaPaRa readers (papara_*.c in
 * src/io); internal to dpaccel_io.
 */
#ifndef DPA_IO_PAPARA_IO_UTIL_H
#define DPA_IO_PAPARA_IO_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "io/papara_io.h"

typedef struct pio_vec {
    char *p;
    size_t n, cap;
} pio_vec;

/* 0 on success, -1 when out of memory. */
static inline int pio_put(pio_vec *v, const void *src, size_t n)
{
    if (v->n + n > v->cap) {
        size_t cap = v->cap ? v->cap : 256;
        while (cap < v->n + n) cap *= 2;
        char *q = realloc(v->p, cap);
        if (!q) return -1;
        v->p = q;
        v->cap = cap;
    }
    if (n) memcpy(v->p + v->n, src, n);
    v->n += n;
    return 0;
}

/* 1-based line of text[pos]. */
static inline int64_t pio_line(const char *text, size_t pos)
{
    int64_t line = 1;
    for (size_t i = 0; i < pos; i++) line += text[i] == '\n';
    return line;
}

static inline int pio_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

#endif
