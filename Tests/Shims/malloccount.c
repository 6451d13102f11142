/*
 * malloccount.c: an LD_PRELOAD library that counts the heap allocations of one process, for the
 * allocation-count guards (`workoutbench counts`, .ci/counts.sh, docs/testing.md). Built with
 * `cc -O2 -shared -fPIC` into a temp dir; never linked into the product.
 *
 * Every malloc, calloc, realloc (a new block or a moved one alike: counted once per call that
 * returns memory), posix_memalign, aligned_alloc, memalign and valloc is counted, with the bytes
 * asked for, then passed to glibc's own allocator (`__libc_malloc` and friends: no dlsym, so no
 * allocation happens before the counters exist). free is not interposed.
 *
 * A program reads the counters through `workoutd_malloc_counts`, which it finds with
 * `dlsym(RTLD_DEFAULT, ...)`: absent when the library is not preloaded.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <errno.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static uint64_t count_calls;
static uint64_t count_bytes;

static inline void note(size_t bytes) {
    __atomic_fetch_add(&count_calls, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&count_bytes, (uint64_t)bytes, __ATOMIC_RELAXED);
}

/* The allocations so far and the bytes they asked for, in this process, every thread. */
void workoutd_malloc_counts(uint64_t *calls, uint64_t *bytes) {
    *calls = __atomic_load_n(&count_calls, __ATOMIC_RELAXED);
    *bytes = __atomic_load_n(&count_bytes, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    note(size);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    note(n * size);
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    note(size);
    return __libc_realloc(p, size);
}

void *memalign(size_t alignment, size_t size) {
    note(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note(size);
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    note(size);
    return __libc_memalign(4096, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    note(size);
    void *p = __libc_memalign(alignment, size);
    if (p == NULL && size != 0) return ENOMEM;
    *out = p;
    return 0;
}
