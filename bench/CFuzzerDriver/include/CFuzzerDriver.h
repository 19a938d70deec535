#pragma once
#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, for a program that has a main of its own (SwiftPM gives every executable
// one). Linked only in bench/fuzz's build (-sanitize=fuzzer); declared here because Swift cannot
// declare a C function itself.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
