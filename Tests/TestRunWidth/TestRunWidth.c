// The width of a plain `swift test` run: how many test cases Swift Testing runs at once.
//
// Swift Testing (6.3) runs at most twice as many test cases at once as the machine has cores:
// four on a two-core machine. Most of our integration tests wait (on an embedded daemon's
// loop, gpsd, D-Bus peers, a browser) rather than compute, and a test waiting for a peer slot
// (`.peerBound`) holds one of those four, so the CPU sat idle behind waits. The library reads
// SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH when its run starts; this constructor runs when
// the test binary is loaded, before that, and sets it only where nobody has (a developer's or
// CI's own value wins). docs/testing.md has the figures.
#include <stdlib.h>

__attribute__((constructor)) static void workoutd_test_run_width(void) {
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", "16", 0);
}
