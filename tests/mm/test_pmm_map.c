/*
 * Host unit test of pmm_init() against hostile firmware memory maps: the
 * real kernel/mm/pmm.c is linked in, with host stubs for the few kernel
 * services it calls.  Every test drains the allocator and checks each page
 * it hands out, so a page of a non-usable entry, a page counted twice or a
 * page lost all show up as a failure.
 *
 * Why longjmp in panic: a map with no usable memory must stop the boot
 * with a message; the test catches that instead of dying.
 */
#include <check.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/mm/pmm.h"
/* The stubs' declarations, so a signature drift breaks the build. */
#include "kernel/mm/vmm.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/spinlock.h"
#include "tests/lib/tap_check.h"

#define KiB	 1024ULL
#define MiB	 (1024 * KiB)
#define GiB	 (1024 * MiB)
#define PHYS_MAX (1ULL << 52)
#define ARENA	 (32 * MiB) /* host memory behind the bitmap + refcounts */

/* ---- host stubs for what pmm.c needs from the kernel ---- */

static uint8_t *arena;
static uint64_t arena_base; /* the first address pmm_init maps: its bitmap */
static bool arena_set;
static jmp_buf panic_env;
static bool panic_armed;
static char panic_msg[512];
static char last_log[512];

void *phys_to_virt(uint64_t phys)
{
	if (!arena_set) {
		arena_set = true;
		arena_base = phys;
		if (!arena)
			arena = malloc(ARENA);
		ck_assert_ptr_nonnull(arena);
	}
	ck_assert_msg(phys >= arena_base && phys - arena_base < ARENA,
		      "pmm dereferences 0x%lx, outside its bitmap arena at 0x%lx", phys,
		      arena_base);
	return arena + (phys - arena_base);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
	va_end(ap);
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	if (panic_armed) {
		panic_armed = false;
		longjmp(panic_env, 1);
	}
	ck_abort_msg("unexpected panic: %s", panic_msg);
	abort();
}

/* The CPU whose per-CPU page list pmm.c uses: a test moves between CPUs by setting it. */
static unsigned int test_cpu;

unsigned int pmm_cpu_get(uint64_t *flags)
{
	*flags = 0;
	return test_cpu;
}

void pmm_cpu_put(uint64_t flags)
{
	(void)flags;
}

/*
 * One thread here, so a lock taken while held would be a CPU spinning on
 * itself in the kernel: each is checked.
 */
void spin_lock_init(spinlock_t *lock, struct rng_lock_class *cls)
{
	lock->ticket.owner = lock->ticket.next = 0;
	lock->cls = cls;
}

void spin_lock(spinlock_t *lock)
{
	ck_assert_msg(lock->ticket.owner == lock->ticket.next,
		      "pmm takes a lock it holds: a deadlock");
	lock->ticket.next++;
}

void spin_unlock(spinlock_t *lock)
{
	ck_assert_msg(lock->ticket.owner != lock->ticket.next,
		      "pmm releases a lock it does not hold");
	lock->ticket.owner++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- building maps ---- */

struct map {
	uint8_t *buf;
	uint32_t count, cap, stride;
};

static struct map map_new(uint32_t stride)
{
	struct map m = {NULL, 0, 0, stride};

	return m;
}

/* Bytes past the entry proper are junk, so a reader ignoring the stride misreads. */
static void add(struct map *m, uint32_t type, uint64_t phys, uint64_t pages)
{
	struct boot_mmap_entry e = {type, 0, phys, pages, 0xf};

	if (m->count == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->buf = realloc(m->buf, (size_t)m->cap * m->stride);
		ck_assert_ptr_nonnull(m->buf);
	}
	memset(m->buf + (size_t)m->count * m->stride, 0xa5, m->stride);
	memcpy(m->buf + (size_t)m->count * m->stride, &e, sizeof(e));
	m->count++;
}

static void add_range(struct map *m, uint32_t type, uint64_t start, uint64_t end)
{
	add(m, type, start, (end - start) / PAGE_SIZE);
}

/* Deterministic Fisher-Yates, so "unsorted" is the same on every run. */
static void shuffle(struct map *m, uint64_t seed)
{
	uint8_t *tmp = malloc(m->stride);

	for (uint32_t i = m->count - 1; i > 0; i--) {
		uint32_t j;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (uint32_t)((seed >> 33) % (i + 1));
		memcpy(tmp, m->buf + (size_t)i * m->stride, m->stride);
		memcpy(m->buf + (size_t)i * m->stride, m->buf + (size_t)j * m->stride, m->stride);
		memcpy(m->buf + (size_t)j * m->stride, tmp, m->stride);
	}
	free(tmp);
}

static struct boot_info bi;

/* pmm_init on the map; true when it panicked (message in panic_msg). */
static bool init_map(const struct map *m, uint32_t stride)
{
	memset(&bi, 0, sizeof(bi));
	bi.mmap = (uint64_t)(uintptr_t)m->buf;
	bi.mmap_count = m->count;
	bi.mmap_entry_size = stride;
	arena_set = false;
	panic_msg[0] = last_log[0] = '\0';
	if (setjmp(panic_env))
		return true;
	panic_armed = true;
	pmm_init(&bi);
	panic_armed = false;
	return false;
}

static void init_ok(const struct map *m)
{
	ck_assert_msg(!init_map(m, m->stride), "pmm_init panicked: %s", panic_msg);
}

/* ---- checking what the allocator hands out ---- */

struct range {
	uint64_t start, end; /* bytes, page aligned */
};

/* Pages of the bitmap + refcounts, from the top of memory, as pmm.c sizes them. */
static uint64_t bitmap_pages(void)
{
	uint64_t n = pmm_max_phys() / PAGE_SIZE;

	return ((n + 63) / 64 * 8 + n * 2 + PAGE_SIZE - 1) / PAGE_SIZE;
}

static bool in_ranges(uint64_t a, const struct range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a >= r[i].start && a < r[i].end)
			return true;
	return false;
}

/*
 * `ok` lists disjoint ranges that must be free except for the bitmap:
 * checks the counts, then allocates every page and checks each one is in
 * `ok`, outside the bitmap, and handed out once; the number handed out
 * must be the count.  Returns the pages allocated, for round trips.
 */
static uint64_t drain_exact(const struct range *ok, size_t n, uint64_t **out)
{
	uint64_t want = 0, got = 0, bm = bitmap_pages(), a;
	uint64_t npages = pmm_max_phys() / PAGE_SIZE;
	uint8_t *seen = calloc(npages, 1);
	uint64_t *list = malloc((pmm_free_count() + 1) * sizeof(*list));

	ck_assert_ptr_nonnull(seen);
	ck_assert_ptr_nonnull(list);
	for (size_t i = 0; i < n; i++)
		want += (ok[i].end - ok[i].start) / PAGE_SIZE;
	ck_assert_msg(in_ranges(arena_base, ok, n) &&
			      in_ranges(arena_base + bm * PAGE_SIZE - 1, ok, n),
		      "bitmap at 0x%lx (%lu pages) is not in free memory", arena_base, bm);
	ck_assert_uint_eq(pmm_total_count(), want - bm);
	ck_assert_uint_eq(pmm_free_count(), want - bm);
	while ((a = pmm_alloc_page()) != 0) {
		ck_assert_msg(a % PAGE_SIZE == 0 && a >= 1 * MiB, "page 0x%lx", a);
		ck_assert_msg(in_ranges(a, ok, n), "page 0x%lx is not usable memory", a);
		ck_assert_msg(a < arena_base || a >= arena_base + bm * PAGE_SIZE,
			      "page 0x%lx is the bitmap's own", a);
		ck_assert_msg(a / PAGE_SIZE < npages && !seen[a / PAGE_SIZE],
			      "page 0x%lx handed out twice", a);
		seen[a / PAGE_SIZE] = 1;
		ck_assert_uint_lt(got, want);
		list[got++] = a;
	}
	ck_assert_uint_eq(got, want - bm);
	ck_assert_uint_eq(pmm_free_count(), 0);
	free(seen);
	if (out)
		*out = list;
	else
		free(list);
	return got;
}

/* ---- the tests ---- */

static const uint32_t odd_types[] = {14, 15, 0x70000001, 0x8000000F, 0xFFFFFFFF};

/*
 * 4200 entries, six types in turn (usable ones included), shuffled, 48-byte
 * stride as OVMF uses.  Only the last, 256 KiB one holds the bitmap.
 */
START_TEST(thousands_unsorted)
{
	static const uint32_t cycle[] = {BOOT_MEM_CONVENTIONAL, BOOT_MEM_RESERVED,
					 BOOT_MEM_BOOT_CODE,	BOOT_MEM_ACPI_RECLAIM,
					 BOOT_MEM_BOOT_DATA,	0x70000000};
	struct map m = map_new(48);
	struct range *ok = calloc(4300, sizeof(*ok));
	size_t nok = 0;
	uint64_t at = 1 * MiB;

	add_range(&m, BOOT_MEM_CONVENTIONAL, 4 * KiB, 0x9f000);
	add_range(&m, BOOT_MEM_RESERVED, 0x9f000, 1 * MiB);
	for (uint32_t k = 0; k < 4200; k++) {
		uint32_t type = cycle[k % 6] + (k % 6 == 5 ? k : 0);
		uint64_t pages = k % 7 + 1;

		add(&m, type, at, pages);
		if (type == BOOT_MEM_CONVENTIONAL || type == BOOT_MEM_BOOT_CODE ||
		    type == BOOT_MEM_BOOT_DATA)
			ok[nok++] = (struct range){at, at + pages * PAGE_SIZE};
		at += pages * PAGE_SIZE;
	}
	add(&m, BOOT_MEM_CONVENTIONAL, at, 64);
	ok[nok++] = (struct range){at, at + 64 * PAGE_SIZE};
	shuffle(&m, 42);
	ck_assert_uint_ge(m.count, 4096);
	init_ok(&m);
	ck_assert_uint_eq(pmm_max_phys(), at + 64 * PAGE_SIZE);
	ck_assert_uint_ge(arena_base, at);
	drain_exact(ok, nok, NULL);
	free(ok);
}
END_TEST

/* Persistent, unaccepted, OEM and OS-vendor memory: alone or over RAM, never free. */
START_TEST(unusual_types)
{
	struct map m = map_new(sizeof(struct boot_mmap_entry));
	struct range ok[6];
	size_t n = sizeof(odd_types) / sizeof(odd_types[0]);

	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 16 * MiB);
	for (size_t i = 0; i < n; i++) {
		add_range(&m, odd_types[i], (16 + i) * MiB, (17 + i) * MiB);
		add_range(&m, odd_types[i], (4 + 2 * i) * MiB, (5 + 2 * i) * MiB);
	}
	init_ok(&m);
	ck_assert_uint_eq(pmm_max_phys(), 16 * MiB);
	ok[0] = (struct range){1 * MiB, 4 * MiB};
	for (size_t i = 0; i < n; i++)
		ok[i + 1] = (struct range){(5 + 2 * i) * MiB, (6 + 2 * i) * MiB};
	ok[n] = (struct range){13 * MiB, 16 * MiB};
	drain_exact(ok, n + 1, NULL);
}
END_TEST

/* Conventional [1, 64) MiB with reserved [8, 9) MiB: before it (_i 0) or after (_i 1). */
START_TEST(reserved_overlap_wins)
{
	struct map m = map_new(48);
	const struct range ok[] = {{1 * MiB, 8 * MiB}, {9 * MiB, 64 * MiB}};

	if (_i == 0)
		add_range(&m, BOOT_MEM_RESERVED, 8 * MiB, 9 * MiB);
	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 64 * MiB);
	if (_i == 1)
		add_range(&m, BOOT_MEM_RESERVED, 8 * MiB, 9 * MiB);
	init_ok(&m);
	ck_assert_uint_eq(pmm_max_phys(), 64 * MiB);
	drain_exact(ok, 2, NULL);
}
END_TEST

/* The bitmap must not land on the kernel image a buggy map also calls free. */
START_TEST(bitmap_avoids_claimed_pages)
{
	struct map m = map_new(48);
	const struct range ok[] = {{3 * MiB, 64 * MiB}};

	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 64 * MiB);
	add_range(&m, BOOT_MEM_LOADER_DATA, 1 * MiB, 2 * MiB);
	add_range(&m, BOOT_MEM_RUNTIME_CODE, 2 * MiB - 4 * KiB, 3 * MiB);
	init_ok(&m);
	ck_assert_uint_eq(arena_base, 3 * MiB);
	drain_exact(ok, 1, NULL);
}
END_TEST

/* The same RAM listed twice, and overlapping usable types: each page once. */
START_TEST(duplicate_usable)
{
	struct map m = map_new(40);
	const struct range ok[] = {{1 * MiB, 48 * MiB}};

	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 32 * MiB);
	add_range(&m, BOOT_MEM_BOOT_DATA, 40 * MiB, 48 * MiB);
	add_range(&m, BOOT_MEM_CONVENTIONAL, 16 * MiB, 48 * MiB);
	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 32 * MiB);
	add_range(&m, BOOT_MEM_BOOT_CODE, 2 * MiB, 3 * MiB);
	init_ok(&m);
	ck_assert_uint_eq(pmm_max_phys(), 48 * MiB);
	drain_exact(ok, 1, NULL);
}
END_TEST

/*
 * Zero-length, wrapping, beyond-2^52 and unaligned entries, usable and
 * not: no crash, no extra pages, no higher top.  An unaligned usable entry
 * keeps only its whole pages; an unaligned reserved one takes every page
 * it touches.
 */
START_TEST(garbage_entries)
{
	struct map m = map_new(48);
	const struct range ok[] = {{1 * MiB, 16 * MiB},
				   {16 * MiB + 8 * KiB, 32 * MiB},
				   {64 * MiB + 4 * KiB, 64 * MiB + 16 * KiB}};

	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 32 * MiB);
	add(&m, BOOT_MEM_CONVENTIONAL, 40 * MiB, 0);
	add(&m, BOOT_MEM_CONVENTIONAL, 128 * MiB, 0xfffffffffffffff0ULL);
	add(&m, BOOT_MEM_CONVENTIONAL, 0xfffffffffffff000ULL, 16);
	add(&m, BOOT_MEM_CONVENTIONAL, PHYS_MAX, 16);
	add(&m, BOOT_MEM_CONVENTIONAL, PHYS_MAX - 4 * KiB, 2);
	add(&m, BOOT_MEM_BOOT_DATA, 1ULL << 63, 1ULL << 40);
	add(&m, BOOT_MEM_CONVENTIONAL, 64 * MiB + 2 * KiB, 4);
	add(&m, BOOT_MEM_CONVENTIONAL, 80 * MiB + 1, 1);
	add(&m, BOOT_MEM_RESERVED, 0, 0xffffffffffffffffULL);
	add(&m, BOOT_MEM_MMIO, 4 * KiB, 1ULL << 52);
	add(&m, BOOT_MEM_RESERVED, 16 * MiB + 2 * KiB, 1);
	add(&m, BOOT_MEM_ACPI_NVS, 20 * MiB, 0);
	init_ok(&m);
	ck_assert_uint_eq(pmm_max_phys(), 64 * MiB + 16 * KiB);
	ck_assert_msg(strstr(last_log, "ignored 10 malformed") != NULL, "log: '%s'", last_log);
	drain_exact(ok, 3, NULL);
}
END_TEST

struct panic_case {
	const char *name, *want;
};

static const struct panic_case panic_cases[] = {
	{"only low memory usable", "no usable memory above 1 MiB"},
	{"empty map", "no usable memory above 1 MiB"},
	{"all RAM claimed by a reserved entry", "no room"},
	{"RAM only above 4 GiB", "no room"},
	{"stride 24 < entry size", "entry size 24"},
	{"stride 0", "entry size 0"},
};

START_TEST(panics_with_message)
{
	struct map m = map_new(sizeof(struct boot_mmap_entry));
	uint32_t stride = m.stride;

	switch (_i) {
	case 0:
		add_range(&m, BOOT_MEM_CONVENTIONAL, 4 * KiB, 0x9f000);
		add_range(&m, BOOT_MEM_RESERVED, 1 * MiB, 64 * MiB);
		add_range(&m, BOOT_MEM_ACPI_RECLAIM, 64 * MiB, 65 * MiB);
		break;
	case 1:
		break;
	case 2:
		add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 64 * MiB);
		add_range(&m, BOOT_MEM_RESERVED, 0, 4 * GiB);
		break;
	case 3:
		add_range(&m, BOOT_MEM_CONVENTIONAL, 4 * GiB, 8 * GiB);
		break;
	case 4:
	case 5:
		add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 64 * MiB);
		stride = _i == 4 ? 24 : 0;
		break;
	}
	ck_assert_msg(init_map(&m, stride), "%s: pmm_init did not panic", panic_cases[_i].name);
	ck_assert_msg(strncmp(panic_msg, "pmm: ", 5) == 0 &&
			      strstr(panic_msg, panic_cases[_i].want),
		      "%s: panic message '%s', expected '%s'", panic_cases[_i].name, panic_msg,
		      panic_cases[_i].want);
}
END_TEST

/* Free everything and take it all again: the counts come back exactly. */
START_TEST(free_realloc_round_trip)
{
	struct map m = map_new(48);
	const struct range ok[] = {{1 * MiB, 8 * MiB}, {9 * MiB, 24 * MiB}};
	uint64_t *pages, n, total, run;

	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 24 * MiB);
	add_range(&m, BOOT_MEM_ACPI_NVS, 8 * MiB, 9 * MiB);
	init_ok(&m);
	total = pmm_total_count();
	run = pmm_alloc_pages(16);
	ck_assert_uint_ne(run, 0);
	ck_assert_uint_eq(pmm_free_count(), total - 16);
	page_ref_get(run);
	page_ref_put(run);
	ck_assert_uint_eq(page_ref_count(run), 1);
	pmm_free_pages(run, 16);
	ck_assert_uint_eq(pmm_free_count(), total);
	n = drain_exact(ok, 2, &pages);
	for (uint64_t i = 0; i < n; i++)
		page_ref_put(pages[i]);
	ck_assert_uint_eq(pmm_free_count(), total);
	ck_assert_uint_eq(pmm_total_count(), total);
	ck_assert_uint_eq(drain_exact(ok, 2, NULL), n);
	for (uint64_t i = 0; i < n; i++)
		pmm_free_page(pages[i]);
	ck_assert_uint_eq(pmm_free_count(), total);
	/* A second free of the same page is caught, and changes nothing. */
	panic_armed = true;
	if (!setjmp(panic_env)) {
		pmm_free_page(pages[0]);
		ck_abort_msg("double free did not panic");
	}
	ck_assert_ptr_nonnull(strstr(panic_msg, "double free"));
	ck_assert_uint_eq(pmm_free_count(), total);
	free(pages);
}
END_TEST

/* Its own frame, so setjmp clobbers nothing of the caller's. */
static void expect_double_free(uint64_t page)
{
	panic_armed = true;
	if (!setjmp(panic_env)) {
		pmm_free_page(page);
		ck_abort_msg("double free of 0x%lx did not panic", page);
	}
	ck_assert_ptr_nonnull(strstr(panic_msg, "double free"));
}

/*
 * The per-CPU page lists: 2.6.29's sizes, last in first out, never above
 * high, exact free counts, and no page out of reach on another CPU's list.
 */
START_TEST(per_cpu_lists)
{
	struct map m = map_new(48);
	struct pmm_pcp_stat st;
	uint64_t total, a, b, held[200], n = 0, run;

	add_range(&m, BOOT_MEM_CONVENTIONAL, 1 * MiB, 600 * MiB);
	init_ok(&m);
	total = pmm_total_count();
	pmm_pcp_stat_read(0, &st);
	ck_assert_uint_eq(st.batch, 31); /* 2.6.29's zone_batchsize for a zone this size */
	ck_assert_uint_eq(st.high, 186);
	ck_assert_uint_eq(st.count, 0);

	a = pmm_alloc_page();
	pmm_pcp_stat_read(0, &st);
	ck_assert_uint_eq(st.refills, 1);
	ck_assert_uint_eq(st.count, 30);
	ck_assert_uint_eq(pmm_free_count(), total - 1);
	pmm_free_page(a);
	b = pmm_alloc_page();
	ck_assert_uint_eq(b, a); /* the page freed last is the next handed out */
	pmm_free_page(b);

	for (int i = 0; i < 200; i++)
		held[i] = pmm_alloc_page();
	for (int i = 0; i < 200; i++) {
		pmm_free_page(held[i]);
		pmm_pcp_stat_read(0, &st);
		ck_assert_uint_lt(st.count, st.high);
	}
	ck_assert_uint_ge(st.drains, 1);
	ck_assert_uint_eq(pmm_free_count(), total);

	/* A double free of a page that sits on a list is caught. */
	a = pmm_alloc_page();
	pmm_free_page(a);
	expect_double_free(a);

	/* CPU 1's list holds pages; CPU 0 still gets every free page. */
	test_cpu = 1;
	pmm_free_page(pmm_alloc_page());
	pmm_pcp_stat_read(1, &st);
	ck_assert_uint_eq(st.count, 31);
	test_cpu = 0;
	uint64_t *all = malloc(total * sizeof(*all));
	ck_assert_ptr_nonnull(all);
	while ((a = pmm_alloc_page()) != 0) {
		ck_assert_uint_lt(n, total);
		all[n++] = a;
	}
	ck_assert_uint_eq(n, total);
	ck_assert_uint_eq(pmm_free_count(), 0);
	pmm_pcp_stat_read(1, &st);
	ck_assert_uint_eq(st.count, 0);

	/* Two neighbours freed onto a list still make a run of two. */
	qsort(all, n, sizeof(*all), cmp_u64);
	pmm_free_page(all[10]);
	pmm_free_page(all[11]);
	ck_assert_uint_eq(all[11], all[10] + PAGE_SIZE);
	run = pmm_alloc_pages(2);
	ck_assert_uint_eq(run, all[10]);
	pmm_free_pages(run, 2);
	for (uint64_t i = 0; i < n; i++)
		if (i != 10 && i != 11)
			pmm_free_page(all[i]);
	ck_assert_uint_eq(pmm_free_count(), total);
	free(all);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pmm_map");
	TCase *tc = tcase_create("map");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, thousands_unsorted);
	tcase_add_test(tc, unusual_types);
	tcase_add_loop_test(tc, reserved_overlap_wins, 0, 2);
	tcase_add_test(tc, bitmap_avoids_claimed_pages);
	tcase_add_test(tc, duplicate_usable);
	tcase_add_test(tc, garbage_entries);
	tcase_add_loop_test(tc, panics_with_message, 0,
			    sizeof(panic_cases) / sizeof(panic_cases[0]));
	tcase_add_test(tc, free_realloc_round_trip);
	tcase_add_test(tc, per_cpu_lists);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
