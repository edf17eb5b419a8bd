/*
 * The initial stack of an exec, byte for byte, as Linux 2.6.29 and 6.6 lay
 * it out on x86_64 (fs/exec.c, fs/binfmt_elf.c create_elf_tables), read
 * back from the child's pages before it runs:
 *
 *   stack_arg_top - 8      8 bytes: bprm_mm_init's bprm->p = vm_end - sizeof(void *)
 *   below, highest first   the filename (AT_EXECFN), envp strings, argv
 *                          strings; the lowest is arg_start (bprm->p)
 *   stack_align_sp         arch_align_stack(arg_start): sp -= rnd % 8192,
 *                          sp &= ~15 (the only randomness below the strings)
 *   stack_align_sp - 7     "x86_64" (AT_PLATFORM)
 *   platform - 16          AT_RANDOM's 16 bytes
 *   sp                     STACK_ROUND(below them - the auxv, items): argc,
 *                          argv[], NULL, envp[], NULL, auxv, AT_NULL
 *
 * and that the strings' distance from stack_arg_top does not change from
 * spawn to spawn while the offset below them does (paxtest's arg/env tests
 * see the stack top's bits only).  Under both rule sets and both profiles.
 */
#include "kernel/measure/policy.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vmm.h"
#include "kernel/char/random.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/process.h"
#include "kernel/task/task.h"
#include "kernel/test/ktest.h"

#define AT_NULL	    0
#define AT_PLATFORM 15
#define AT_RANDOM   25
#define AT_EXECFN   31
#define SPAWNS	    8

static const char filename[] = "/bin/t_nop";
static char *const args[] = {"t_nop", "second arg"};
static char *const envs[] = {"A=1", "LONGER_NAME=some value"};
#define ARGC 2
#define ENVC 2

static char *ptrs[EXEC_PTRS_MAX]; /* spawn_file's argv + envp (it may splice in) */

/* Copies len bytes of the child's memory at va (present pages only): 0 or -1. */
static int peek(const struct mm_struct *mm, uint64_t va, void *buf, uint64_t len)
{
	uint8_t *out = buf;

	for (uint64_t i = 0; i < len; i++) {
		uint64_t pa;

		if (vmm_translate(mm->pml4, va + i, &pa, 0))
			return -1;
		out[i] = *(const uint8_t *)phys_to_virt(pa);
	}
	return 0;
}

static uint64_t peek64(const struct mm_struct *mm, uint64_t va, bool *ok)
{
	uint64_t v = 0;

	if (peek(mm, va, &v, 8))
		*ok = false;
	return v;
}

/* The strings block from arg_start up: argv, envp, filename, each with its NUL. */
static uint64_t expected_block(char *buf, uint64_t room, uint64_t *at)
{
	const char *s[ARGC + ENVC + 1] = {args[0], args[1], envs[0], envs[1], filename};
	uint64_t n = 0;

	for (int i = 0; i < ARGC + ENVC + 1; i++) {
		uint64_t len = strlen(s[i]) + 1;

		if (n + len > room)
			return 0;
		at[i] = n;
		memcpy(buf + n, s[i], len);
		n += len;
	}
	return n;
}

/* One child's stack against the layout above: NULL or what differs. */
static const char *check_stack(const struct mm_struct *mm)
{
	static char want[256], got[256];
	uint64_t at[ARGC + ENVC + 1], top = mm->stack_arg_top, sp = mm->start_stack;
	uint64_t n = expected_block(want, sizeof(want), at), q = top - 8 - n;
	uint64_t plat = mm->stack_align_sp - 7, rnd = plat - 16, aux_end = 0, v, seen = 0;
	uint8_t bytes[16];
	bool ok = true;

	if (!n || mm->arg_start != q)
		return "arg_start is not stack_arg_top - 8 - the strings";
	if (peek(mm, q, got, n + 8) || memcmp(got, want, n))
		return "the strings are not right under stack_arg_top - 8";
	for (int i = 0; i < 8; i++)
		if (got[n + i])
			return "bprm_mm_init's 8 bytes below stack_arg_top are not zero";
	if (mm->stack_align_sp % 16 || mm->stack_align_sp > (q & ~0xfULL) ||
	    (q & ~0xfULL) - mm->stack_align_sp > ASLR_STACK_ALIGN)
		return "the offset is not arch_align_stack(arg_start)";
	if (peek(mm, plat, got, 7) || memcmp(got, "x86_64", 7))
		return "no platform string at arch_align_stack(arg_start) - 7";
	if (peek(mm, rnd, bytes, 16) || memcmp(bytes, mm->at_random, 16))
		return "AT_RANDOM's bytes are not right below the platform string";
	if (sp % 16 || peek64(mm, sp, &ok) != ARGC)
		return "argc";
	for (int i = 0; i < ARGC + ENVC + 2; i++) {
		uint64_t want_p = i < ARGC	     ? q + at[i]
				  : i == ARGC	     ? 0
				  : i <= ARGC + ENVC ? q + at[i - 1]
						     : 0;

		if (peek64(mm, sp + 8 + 8 * (uint64_t)i, &ok) != want_p)
			return "argv/envp pointers";
	}
	/* the auxv: the three addresses, then AT_NULL; STACK_ROUND leaves < 16 bytes above */
	for (uint64_t a = sp + 8 * (ARGC + ENVC + 3);; a += 16) {
		uint64_t type = peek64(mm, a, &ok);

		v = peek64(mm, a + 8, &ok);
		if (!ok || a + 16 > rnd)
			return "auxv runs into AT_RANDOM's bytes";
		if (type == AT_NULL) {
			aux_end = a + 16;
			break;
		}
		if ((type == AT_PLATFORM && v != plat) || (type == AT_RANDOM && v != rnd) ||
		    (type == AT_EXECFN && v != q + at[ARGC + ENVC]))
			return "an auxv address (AT_PLATFORM, AT_RANDOM or AT_EXECFN)";
		seen |= type == AT_PLATFORM ? 1 : type == AT_RANDOM ? 2 : type == AT_EXECFN ? 4 : 0;
	}
	if (seen != 7)
		return "AT_PLATFORM, AT_RANDOM or AT_EXECFN missing";
	if (rnd - aux_end >= 16 || sp != ((rnd - (aux_end - sp)) & ~0xfULL))
		return "sp is not STACK_ROUND(AT_RANDOM - auxv - items)";
	return 0;
}

static enum ktest_result aslr_exec_stack(struct ktest_ctx *t)
{
	struct policy want, saved;
	enum ktest_result res = KTEST_PASS;

	policy_current(&want);
	want.randomize_va_space = 2;
	policy_select(&want, &saved);
	for (int k = 0; k < 2 * ASLR_NR_RULES && res == KTEST_PASS; k++) {
		uint64_t str_off = 0, offs[SPAWNS];
		bool moved = false;

		want.aslr_rules = k >> 1;
		want.aslr_ia32 = k & 1;
		policy_select(&want, 0);
		for (int i = 0; i < SPAWNS && res == KTEST_PASS; i++) {
			long pid;
			struct task_struct *c;
			const char *bad;
			int status;

			ptrs[0] = args[0];
			ptrs[1] = args[1];
			ptrs[2] = envs[0];
			ptrs[3] = envs[1];
			pid = spawn_file(filename, ptrs, EXEC_PTRS_MAX, ARGC, ENVC);
			c = pid > 0 ? find_task_by_pid((int)pid) : 0;
			if (!c || !c->mm) {
				res = ktest_fail(t, "spawn %s: %ld", filename, pid);
				break;
			}
			bad = check_stack(c->mm);
			if (bad)
				res = ktest_fail(
					t, "%s/%s: %s (top 0x%lx arg_start 0x%lx sp 0x%lx)",
					aslr_rules_name(want.aslr_rules),
					want.aslr_ia32 ? "ia32" : "x86_64", bad,
					c->mm->stack_arg_top, c->mm->arg_start, c->mm->start_stack);
			offs[i] = c->mm->arg_start - c->mm->stack_align_sp;
			if (i && c->mm->stack_arg_top - c->mm->arg_start != str_off)
				res = ktest_fail(t, "the strings moved against stack_arg_top");
			str_off = c->mm->stack_arg_top - c->mm->arg_start;
			moved |= i && offs[i] != offs[0];
			do_wait((int)pid, 0, &status, 0, 0);
		}
		if (res == KTEST_PASS && !moved)
			res = ktest_fail(t, "%s: the offset below the strings never moved",
					 aslr_rules_name(want.aslr_rules));
	}
	policy_restore(&saved);
	return res;
}
KTEST(aslr_exec_stack);
