/*
 * clockshim.c: an LD_PRELOAD library that moves the clocks of ONE process (the daemon under
 * test) and never the machine's. Built by the integration tests with `cc -shared -fPIC` into a
 * temp dir (Tests/IntegrationTests/Support/ClockShim.swift).
 *
 * Control file: $WORKOUTD_CLOCK_SHIM, re-read whenever its modification time changes; lines of
 *     realtime SECONDS      added to CLOCK_REALTIME(_COARSE), gettimeofday, time
 *     boottime SECONDS      added to CLOCK_BOOTTIME
 *     monotonic SECONDS     added to CLOCK_MONOTONIC(_COARSE, _RAW)
 *     unsync 0|1            adjtimex/ntp_adjtime/clock_adjtime report TIME_ERROR and STA_UNSYNC
 * A one-hour suspend is `realtime 3600` + `boottime 3600` (MONOTONIC stops while suspended);
 * a wall-clock step is `realtime N` alone.
 *
 * adjtimex and friends are only ever answered for reads (modes == 0); any attempt to set the
 * clock through this process fails with EPERM and never reaches the kernel.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct timespec loaded_mtime;
static int loaded_ok;
static double off_real, off_boot, off_mono;
static int unsync;

static void reload(void) {
    const char *path = getenv("WORKOUTD_CLOCK_SHIM");
    struct stat st;
    if (!path || stat(path, &st) != 0) return;
    pthread_mutex_lock(&lock);
    if (!loaded_ok || st.st_mtim.tv_sec != loaded_mtime.tv_sec || st.st_mtim.tv_nsec != loaded_mtime.tv_nsec) {
        FILE *f = fopen(path, "r");
        if (f) {
            double r = 0, b = 0, m = 0; int u = 0;
            char key[32]; double v;
            while (fscanf(f, "%31s %lf", key, &v) == 2) {
                if (!strcmp(key, "realtime")) r = v;
                else if (!strcmp(key, "boottime")) b = v;
                else if (!strcmp(key, "monotonic")) m = v;
                else if (!strcmp(key, "unsync")) u = v != 0;
            }
            fclose(f);
            off_real = r; off_boot = b; off_mono = m; unsync = u;
            loaded_mtime = st.st_mtim;
            loaded_ok = 1;
        }
    }
    pthread_mutex_unlock(&lock);
}

static void add(struct timespec *ts, double seconds) {
    if (seconds == 0) return;
    long long ns = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + (long long)(seconds * 1e9);
    ts->tv_sec = (time_t)(ns / 1000000000LL);
    ts->tv_nsec = (long)(ns % 1000000000LL);
    if (ts->tv_nsec < 0) { ts->tv_nsec += 1000000000L; ts->tv_sec -= 1; }
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int rc = real(id, ts);
    if (rc != 0) return rc;
    reload();
    switch (id) {
    case CLOCK_REALTIME: case CLOCK_REALTIME_COARSE: add(ts, off_real); break;
    case CLOCK_BOOTTIME: add(ts, off_boot); break;
    case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_COARSE: case CLOCK_MONOTONIC_RAW: add(ts, off_mono); break;
    default: break;
    }
    return rc;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    int rc = clock_gettime(CLOCK_REALTIME, &ts);
    if (rc == 0 && tv) { tv->tv_sec = ts.tv_sec; tv->tv_usec = ts.tv_nsec / 1000; }
    (void)tz;
    return rc;
}

time_t time(time_t *t) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (t) *t = ts.tv_sec;
    return ts.tv_sec;
}

static int read_timex(struct timex *tx, const char *name) {
    if (tx->modes != 0) { errno = EPERM; return -1; }  /* never set the clock */
    int (*real)(struct timex *) = (int (*)(struct timex *))dlsym(RTLD_NEXT, name);
    int rc = real ? real(tx) : -1;
    reload();
    if (rc < 0) return rc;
    if (unsync) { tx->status |= STA_UNSYNC; return TIME_ERROR; }
    tx->status &= ~STA_UNSYNC;
    return rc == TIME_ERROR ? TIME_OK : rc;
}

int adjtimex(struct timex *tx) { return read_timex(tx, "adjtimex"); }
int ntp_adjtime(struct timex *tx) { return read_timex(tx, "ntp_adjtime"); }
int clock_adjtime(clockid_t id, struct timex *tx) {
    if (tx->modes != 0) { errno = EPERM; return -1; }
    if (id != CLOCK_REALTIME) { errno = EINVAL; return -1; }
    return read_timex(tx, "adjtimex");
}
