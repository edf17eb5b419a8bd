/* bench/platform.h for a Linux process, and the process set-up around it. */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "bench/host/platform_linux.h"
#include "bench/platform.h"
#include "common/tsc.h"
#include "rng/rng.h"

static FILE *log_file;

/* A user process cannot mask interrupts: the boot record says irqs_off:false. */
uint64_t bench_irq_save(void)
{
	return 0;
}

void bench_irq_restore(uint64_t flags)
{
	(void)flags;
}

void bench_emit(const char *line)
{
	puts(line);
	fflush(stdout);
	if (log_file) {
		fputs(line, log_file);
		fputc('\n', log_file);
		fflush(log_file);
	}
}

/*
 * One growing mapping, touched when (re)made so that page faults never land
 * inside a timed region.  Capped so that a typo in --samples fails cleanly.
 */
#define SCRATCH_MAX ((size_t)1 << 30)

void *bench_scratch(size_t bytes)
{
	static void *buf;
	static size_t size;

	if (bytes > SCRATCH_MAX)
		return NULL;
	if (bytes > size) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);

		if (p == MAP_FAILED)
			return NULL;
		if (buf)
			munmap(buf, size);
		memset(p, 0, bytes);
		buf = p;
		size = bytes;
	}
	return buf;
}

void host_set_log(FILE *log)
{
	log_file = log;
}

static uint32_t cached_pid;
static volatile uint64_t jiffies;

static uint32_t plat_pid(void)
{
	return cached_pid;
}

static uint64_t plat_jiffies(void)
{
	return jiffies;
}

static uint64_t plat_cycles(void)
{
	return tsc_read();
}

static void tick(int sig)
{
	(void)sig;
	jiffies = jiffies + 1;
}

int host_rng_platform(uint32_t hz)
{
	static struct rng_platform p = {
		.current_pid = plat_pid,
		.jiffies = plat_jiffies,
		.get_cycles = plat_cycles,
		.simd_begin = rng_user_simd_begin,
		.simd_end = rng_user_simd_end,
		.simd_xfeatures = RNG_USER_SIMD_XFEATURES,
	};
	struct sigaction sa;
	struct itimerval it;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tick;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (!hz || sigaction(SIGALRM, &sa, NULL))
		return -1;
	it.it_interval.tv_sec = 0;
	it.it_interval.tv_usec = (suseconds_t)(1000000 / hz);
	it.it_value = it.it_interval;
	if (setitimer(ITIMER_REAL, &it, NULL))
		return -1;
	cached_pid = (uint32_t)getpid();
	/* Start near the kernel's INITIAL_JIFFIES (-300 s) wrap point, as Linux does. */
	jiffies = (uint64_t)(uint32_t)(-300 * (int32_t)hz);
	p.hz = hz;
	rng_set_platform(&p);
	return 0;
}

int host_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0) {
		if (sched_getaffinity(0, sizeof(set), &set))
			return -1;
		for (int i = CPU_SETSIZE - 1; i >= 0; i--) {
			if (CPU_ISSET(i, &set)) {
				cpu = i;
				break;
			}
		}
	}
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}

const char *host_sched_fifo(void)
{
	struct sched_param sp = {.sched_priority = 1};

	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0)
		return "fifo";
	return errno == EPERM ? "other (SCHED_FIFO not permitted)" : "other (SCHED_FIFO failed)";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t host_tsc_hz(unsigned ms)
{
	struct timespec d = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
	uint64_t n0, n1, t0, t1;

	n0 = now_ns();
	t0 = tsc_read();
	while (nanosleep(&d, &d) && errno == EINTR)
		;
	n1 = now_ns();
	t1 = tsc_read();
	if (n1 <= n0)
		return 0;
	return (uint64_t)((unsigned __int128)(t1 - t0) * 1000000000u / (n1 - n0));
}

static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct bench_config *cfg = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *lo;

		if (ph->p_type != PT_LOAD || !ph->p_memsz || !(ph->p_flags & PF_R))
			continue;
		if (cfg->nflush >= BENCH_MAX_RANGES)
			return 1;
		lo = (const char *)(info->dlpi_addr + ph->p_vaddr);
		cfg->flush[cfg->nflush].lo = lo;
		cfg->flush[cfg->nflush].hi = lo + ph->p_memsz;
		cfg->nflush++;
	}
	return 0;
}

unsigned host_image_ranges(struct bench_config *cfg)
{
	cfg->nflush = 0;
	dl_iterate_phdr(add_object, cfg);
	return cfg->nflush;
}
