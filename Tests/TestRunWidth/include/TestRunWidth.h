// Nothing to call: TestRunWidth.c's constructor runs when the test binary is loaded.
