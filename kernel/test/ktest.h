/*
 * In-kernel tests, as kvm-unit-tests does it: the image itself is the test,
 * results go out as "@@ {"type":"test",...}" records and the exit status.
 *
 * A test returns KTEST_PASS, KTEST_SKIP, or KTEST_FAIL after writing why
 * into its detail buffer (ktest_fail does both).
 */
#ifndef KERNEL_TEST_KTEST_H
#define KERNEL_TEST_KTEST_H

#include <stdbool.h>
#include <stddef.h>

enum ktest_result { KTEST_PASS = 0, KTEST_FAIL = 1, KTEST_SKIP = 2 };

struct ktest_ctx {
	char detail[200];
};

struct ktest {
	const char *name;
	enum ktest_result (*fn)(struct ktest_ctx *t);
	bool explicit_only; /* runs only when named by suite= (e.g. it ends the run) */
};

/*
 * The section holds pointers, not the structs: the compiler may pad structs
 * in a section to 16 bytes, pointers are always 8 apart.
 */
#define KTEST_DEFINE(fn_, explicit_)                                                               \
	static const struct ktest ktest_##fn_ = {#fn_, fn_, explicit_};                            \
	static const struct ktest *const ktest_ptr_##fn_                                           \
		__attribute__((used, section(".ktests"))) = &ktest_##fn_
#define KTEST(fn_)	    KTEST_DEFINE(fn_, false)
#define KTEST_EXPLICIT(fn_) KTEST_DEFINE(fn_, true)

enum ktest_result ktest_fail(struct ktest_ctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
enum ktest_result ktest_skip(struct ktest_ctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Wakes every t_park program (userland/test/t_park.c) so it exits. */
void ktest_release_parked(void);

/* Runs the tests `filter` selects ("" = all); returns the number failed, -1 if none matched. */
int ktest_run_all(const char *filter);

/* Spawns argv[0] (a spawn_prog name; argc words) and waits: its wait status, or -errno. */
long ktest_run(int argc, char **argv);

#endif
