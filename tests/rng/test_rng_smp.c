/*
 * Several CPUs: the state each Linux kept per CPU stays per CPU, and the
 * shared state is locked where Linux locked it, counted on the CPU that
 * took the lock.  The expected counts are read off the Linux source named
 * at each test, not off rng/.
 */
#include <check.h>
#include <pthread.h>
#include <string.h>

#include "tests/lib/tap_check.h"
#include "tests/rng/fake_platform.h"
#include "rng/lockdep.h"
#include "rng/spinlock.h"

static uint64_t acquired(unsigned int cpu)
{
	struct rng_lock_stat s;

	rng_lock_stat_read(cpu, &s);
	return s.acquired;
}

/* 3.13-5.9 prandom_u32() and chacha20-wide: CPU 1's draws leave CPU 0's sequence alone */
START_TEST(test_stream_per_cpu)
{
	static const char *const names[] = {"prandom", "chacha20-wide"};
	const struct rng_variant *v = rng_find(names[_i]);
	uint32_t solo[300], x[300], y[300];
	int i;

	v->init(seed, sizeof(seed));
	for (i = 0; i < 300; i++)
		solo[i] = v->get_u32();
	v->init(seed, sizeof(seed));
	for (i = 0; i < 100; i++)
		x[i] = v->get_u32();
	t_cpu = 1;
	for (i = 0; i < 300; i++)
		y[i] = v->get_u32();
	t_cpu = 0;
	for (i = 100; i < 300; i++)
		x[i] = v->get_u32();
	ck_assert_mem_eq(x, solo, sizeof(x));
	ck_assert(memcmp(y, solo, sizeof(y)) != 0);
}
END_TEST

/*
 * 2.6.29 get_random_bytes(4) with both pools' entropy estimates at zero
 * (nothing credited, as in these tests): extract_entropy(&nonblocking_pool)
 * -> xfer_secondary_pool -> extract_entropy(&input_pool) -> account(input)
 * [lock 1, returns 0 bytes], mix_pool_bytes(nonblocking, tmp, 0) [lock 2],
 * credit_entropy_bits(0) [returns before its lock]; account(nonblocking)
 * [lock 3]; extract_buf -> mix_pool_bytes_extract [lock 4].  Four per call,
 * all on the drawing CPU.
 */
START_TEST(test_urandom_2629_locks_per_call)
{
	const struct rng_variant *v = rng_find("urandom-2.6.29");
	uint64_t before, other;

	v->init(seed, sizeof(seed));
	t_cpu = 3;
	before = acquired(3);
	other = acquired(0);
	for (int i = 0; i < 100; i++)
		(void)v->get_u32();
	ck_assert_uint_eq(acquired(3) - before, 400);
	ck_assert_uint_eq(acquired(0), other);
}
END_TEST

/*
 * 6.6 crng_make_state(): base_crng.lock only when the CPU's crng is behind
 * base_crng's generation (once, after init); a batch refill otherwise takes
 * no lock.  The 2009 hashes and prandom take none at all.
 */
START_TEST(test_lockless_variants)
{
	static const char *const names[] = {"chacha20-batched", "chacha20-wide", "md4-2.6.30",
					    "md5-3.x",		"sha1-mackall",	 "prandom",
					    "ipid-2.6.29"};
	static const uint64_t want[] = {1, 1, 0, 0, 0, 0, 0};
	const struct rng_variant *v = rng_find(names[_i]);
	uint64_t before;

	v->init(seed, sizeof(seed));
	t_cpu = 2;
	before = acquired(2);
	for (int i = 0; i < 1000; i++)
		(void)v->get_u32();
	ck_assert_uint_eq(acquired(2) - before, want[_i]);
}
END_TEST

/*
 * The ticket lock excludes: two threads, each its own "CPU", one counter.
 * Few rounds and a long timeout: on a loaded host a waiter whose turn has
 * come may be descheduled, and a ticket lock then waits for it (FIFO).
 */
static __thread unsigned int thread_cpu;
static struct rng_spinlock counter_lock;
static uint64_t counter;

static unsigned int thread_cpu_id(void)
{
	return thread_cpu;
}

static void *hammer(void *arg)
{
	unsigned long flags;

	thread_cpu = (unsigned int)(uintptr_t)arg;
	for (int i = 0; i < 2000; i++) {
		rng_spin_lock_irqsave(&counter_lock, &flags);
		counter = counter + 1;
		rng_spin_unlock_irqrestore(&counter_lock, flags);
	}
	return NULL;
}

START_TEST(test_spinlock_excludes)
{
	static const struct rng_platform threads = {.cpu_id = thread_cpu_id, .hz = 100};
	pthread_t t[2];
	uint64_t before[2];
	unsigned int i;

	rng_set_platform(&threads);
	for (i = 0; i < 2; i++)
		before[i] = acquired(10 + i);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, hammer, (void *)(uintptr_t)(10 + i)),
				 0);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ck_assert_uint_eq(counter, 4000);
	for (i = 0; i < 2; i++)
		ck_assert_uint_eq(acquired(10 + i) - before[i], 2000);
}
END_TEST

/*
 * The lock-order checker (rng/lockdep.h, this test's debug build): b after
 * a, then a after b, is the order that deadlocks two CPUs; it is reported
 * once, naming both, before the second acquisition spins.
 */
static unsigned int seen_held, seen_taking;

static void note_report(unsigned int held, unsigned int taking)
{
	seen_held = held;
	seen_taking = taking;
}

START_TEST(test_lockdep_inversion)
{
	static struct rng_spinlock a, b;
	uint64_t before = rng_lockdep_violations;

	rng_lockdep_report = note_report;
	rng_spin_lock(&a);
	rng_spin_lock(&b);
	rng_spin_unlock(&b);
	rng_spin_unlock(&a);
	ck_assert_uint_eq(rng_lockdep_violations, before);
	ck_assert_uint_eq(rng_lockdep_depth(), 0);
	t_cpu = 5; /* another CPU, the other order */
	rng_spin_lock(&b);
	rng_spin_lock(&a);
	ck_assert_uint_eq(rng_lockdep_depth(), 2);
	rng_spin_unlock(&a);
	rng_spin_unlock(&b);
	ck_assert_uint_eq(rng_lockdep_violations, before + 1);
	ck_assert_uint_eq(seen_held, b.cls.id);
	ck_assert_uint_eq(seen_taking, a.cls.id);
	ck_assert_uint_ne(a.cls.id, b.cls.id);
	rng_lockdep_report = NULL;
}
END_TEST

/* Every variant's draws, reseeds and bulk reads from four CPUs take their locks in one order. */
static void *draw_all(void *arg)
{
	thread_cpu = (unsigned int)(uintptr_t)arg;
	for (int i = 0; rng_variants[i]; i++) {
		const struct rng_variant *v = rng_variants[i];
		uint8_t buf[64];

		if (!v->available())
			continue;
		for (int n = 0; n < 200; n++)
			(void)v->get_u32();
		if (v->get_bytes)
			v->get_bytes(buf, sizeof(buf));
	}
	return NULL;
}

START_TEST(test_lockdep_variants_in_order)
{
	static struct rng_platform threads;
	uint64_t before = rng_lockdep_violations;
	pthread_t t[4];

	threads = fake;
	threads.cpu_id = thread_cpu_id;
	for (int i = 0; rng_variants[i]; i++)
		rng_variants[i]->init(seed, sizeof(seed));
	rng_set_platform(&threads);
	for (unsigned int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, draw_all, (void *)(uintptr_t)(20 + i)),
				 0);
	for (unsigned int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ck_assert_uint_eq(rng_lockdep_violations, before);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rng-smp");
	TCase *tc = tcase_create("smp");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_stream_per_cpu, 0, 2);
	tcase_add_test(tc, test_urandom_2629_locks_per_call);
	tcase_add_loop_test(tc, test_lockless_variants, 0, 7);
	tcase_add_test(tc, test_spinlock_excludes);
	tcase_add_test(tc, test_lockdep_inversion);
	tcase_add_test(tc, test_lockdep_variants_in_order);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
