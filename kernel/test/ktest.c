/* The in-kernel test runner: see ktest.h. */
#include <stdarg.h>

#include "common/jrec.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/test/ktest.h"

extern const struct ktest *const __ktests_start[], *const __ktests_end[];

enum ktest_result ktest_fail(struct ktest_ctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(t->detail, sizeof(t->detail), fmt, ap);
	va_end(ap);
	return KTEST_FAIL;
}

enum ktest_result ktest_skip(struct ktest_ctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(t->detail, sizeof(t->detail), fmt, ap);
	va_end(ap);
	return KTEST_SKIP;
}

/* suite=NAME selects the test NAME and every test named NAME_*. */
static bool selected(const struct ktest *k, const char *filter)
{
	size_t n = strlen(filter);

	if (!n)
		return !k->explicit_only;
	if (!strcmp(k->name, filter))
		return true;
	return !k->explicit_only && !strncmp(k->name, filter, n) && k->name[n] == '_';
}

static void report(const struct ktest *k, enum ktest_result r, const struct ktest_ctx *t)
{
	static const char *const names[] = {"pass", "fail", "skip"};
	char line[512];
	struct jrec rec;

	jrec_begin(&rec, line, sizeof(line), "test");
	jrec_str(&rec, "name", k->name);
	jrec_str(&rec, "result", names[r]);
	if (r != KTEST_PASS)
		jrec_str(&rec, "detail", t->detail);
	console_puts(jrec_end(&rec));
}

int ktest_run_all(const char *filter)
{
	int passed = 0, failed = 0, skipped = 0;
	char line[160];
	struct jrec rec;

	for (const struct ktest *const *kp = __ktests_start; kp < __ktests_end; kp++) {
		const struct ktest *k = *kp;
		struct ktest_ctx t;
		enum ktest_result r;

		if (!selected(k, filter))
			continue;
		memset(&t, 0, sizeof(t));
		kprintf("test %s ...\n", k->name);
		r = k->fn(&t);
		report(k, r, &t);
		if (r == KTEST_PASS)
			passed++;
		else if (r == KTEST_SKIP)
			skipped++;
		else
			failed++;
	}
	if (passed + failed + skipped == 0)
		return -1;
	jrec_begin(&rec, line, sizeof(line), "summary");
	jrec_u64(&rec, "passed", (uint64_t)passed);
	jrec_u64(&rec, "failed", (uint64_t)failed);
	jrec_u64(&rec, "skipped", (uint64_t)skipped);
	jrec_u64(&rec, "status", failed ? 1 : 0);
	console_puts(jrec_end(&rec));
	kprintf("%d passed, %d failed\n", passed, failed);
	return failed;
}

/* Spawns argv[0] (a spawn_prog name; argc words) and waits: its wait status, or -errno. */
long ktest_run(int argc, char **argv)
{
	int status = 0;
	long pid = spawn_prog(argv[0], argc, argv), rc;

	if (pid < 0)
		return pid;
	rc = do_wait((int)pid, 0, &status, 0, 0);
	return rc < 0 ? rc : status;
}
